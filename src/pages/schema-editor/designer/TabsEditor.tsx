import { Badge, Button, Input, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular, Filter20Regular } from '@fluentui/react-icons';
import { useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { move, setOrClear } from '../../../core/designerDraft';
import { resolveLabel } from '../../../core/labels';
import type { ResourceField, TabSchema } from '../../../core/pageSchema';
import type { Enums } from '../../../engine/schemaApi';
import type { RuleField } from './RuleBuilder';
import { LabelInputs } from './LabelInputs';
import { SortableList } from './SortableList';
import { TabFilterBuilder } from './TabFilterBuilder';

const useStyles = makeStyles({
  // A count on a button, apart from its word.
  count: { marginInlineStart: tokens.spacingHorizontalXS },
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase200, width: '120px' },
  filter: { width: '100%', padding: tokens.spacingVerticalS },
  add: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', marginTop: tokens.spacingVerticalS },
  bad: { color: tokens.colorPaletteRedForeground1 },
});

const TAB_KEY = /^[a-z][a-z0-9_]{0,31}$/;

/** The fields a list can filter on, as the builders offer them (enum and inline options become selects). */
export function filterFields(fields: Record<string, ResourceField>, enums: Enums, lang: string): RuleField[] {
  return Object.entries(fields).filter(([, f]) => f.filter).map(([name, f]) => {
    const opts = Array.isArray(f.options) ? f.options : typeof f.options === 'string' && !f.options.startsWith('resource:') ? enums[f.options] : undefined;
    return { name, label: resolveLabel(f.label ?? name, lang), values: opts?.map((o) => ({ value: String(o.value), label: resolveLabel(o.label, lang) })) };
  });
}

/**
 * A list page's tabs: their order (drag), labels in both languages, and each tab's filter built in the rule
 * builder (written as the filter DSL the list engine sends); a tab is added with its key, or removed.
 */
export function TabsEditor({ tabs, fields, enums, onChange }: { tabs: TabSchema[]; fields: Record<string, ResourceField>; enums: Enums; onChange(tabs: TabSchema[]): void }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const [key, setKey] = useState('');
  const ruleFields = useMemo(() => filterFields(fields, enums, i18n.language), [fields, enums, i18n.language]);
  const numeric = useCallback((f: string) => fields[f]?.type === 'integer' || fields[f]?.type === 'number', [fields]);
  const update = (i: number, change: (tab: TabSchema) => TabSchema) => onChange(tabs.map((x, j) => (j === i ? change(x) : x)));
  const keyProblem = key && !TAB_KEY.test(key) ? t('designer.badName') : tabs.some((x) => x.key === key) ? t('designer.nameTaken') : '';

  return (
    <div className={s.root} data-testid="designer-tabs">
      <SortableList items={tabs} idOf={(x) => `tab-${x.key}`} labelOf={(x) => resolveLabel(x.label, i18n.language)} onMove={(from, to) => onChange(move(tabs, from, to))}
        render={(tab, i) => (
          <>
            <span className={s.code}>{tab.key}</span>
            <LabelInputs value={tab.label} onChange={(l) => update(i, (x) => ({ ...x, label: l ?? { 'zh-CN': tab.key, 'en-US': tab.key } }))} testId={`tab-label-${tab.key}`} />
            <Button size="small" appearance={open === tab.key ? 'primary' : 'secondary'} icon={<Filter20Regular />} onClick={() => setOpen(open === tab.key ? null : tab.key)} data-testid={`tab-filter-${tab.key}`}>
              {t('designer.tabFilter')}{tab.filter?.length ? <Badge size="small" appearance="tint" className={s.count}>{tab.filter.length}</Badge> : null}
            </Button>
            <Button size="small" appearance="subtle" icon={<Delete20Regular />} aria-label={t('designer.removeTab')} title={t('designer.removeTab')}
              disabled={tabs.length <= 1} onClick={() => onChange(tabs.filter((_, j) => j !== i))} data-testid={`tab-remove-${tab.key}`} />
            {open === tab.key ? (
              <div className={s.filter}>
                <TabFilterBuilder fields={ruleFields} value={tab.filter} numeric={numeric} testId={`tab-builder-${tab.key}`}
                  onChange={(filter) => update(i, (x) => setOrClear(x, 'filter', filter.length ? filter : undefined))} />
              </div>
            ) : null}
          </>
        )} />
      <div className={s.add}>
        <Input size="small" value={key} onChange={(_, d) => setKey(d.value.trim())} placeholder={t('designer.tabKey')} aria-label={t('designer.tabKey')} data-testid="tab-add-key" />
        <Button size="small" icon={<Add20Regular />} disabled={!key || !!keyProblem}
          onClick={() => { onChange([...tabs, { key, label: { 'zh-CN': key, 'en-US': key } }]); setOpen(key); setKey(''); }} data-testid="tab-add">{t('designer.addTab')}</Button>
        {keyProblem ? <span className={s.bad}>{keyProblem}</span> : null}
      </div>
    </div>
  );
}
