import { Badge, Button, Checkbox, Select, makeStyles, tokens } from '@fluentui/react-components';
import { Delete20Regular, Flow20Regular } from '@fluentui/react-icons';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { layerContract, type Contract, type ContractExtension } from '../../../core/contract';
import { move, setOrClear, withField, withoutField, withRequired, withRule, type OptionalKey } from '../../../core/designerDraft';
import { resolveLabel } from '../../../core/labels';
import type { FormFieldLayout, InlineLabel } from '../../../core/pageSchema';
import type { Enums } from '../../../engine/schemaApi';
import { ChecksEditor } from './ChecksEditor';
import { FieldRules } from './FieldRules';
import { LabelInputs } from './LabelInputs';
import { NewFieldForm } from './NewFieldForm';
import type { RuleField } from './RuleBuilder';
import { SortableList } from './SortableList';

const useStyles = makeStyles({
  // A count on a button, apart from its word.
  count: { marginInlineStart: tokens.spacingHorizontalXS },
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  name: { width: '170px', display: 'flex', flexDirection: 'column' },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
  small: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200 },
});

type Entry = string | FormFieldLayout;
const asLayout = (e: Entry): FormFieldLayout => (typeof e === 'string' ? { field: e } : e);
/** A layout entry with nothing but its name is written as the name, as the base files do. */
const asEntry = (l: FormFieldLayout): Entry => (Object.keys(l).length === 1 ? l.field : l);

/**
 * A resource form: the page's fields in order with their labels, help and requirement, the fields the
 * hospital added (kept in `extra`, in its contract extension) with their type, labels and options, and
 * every field's visibility and required-when rules built in the rule builder, and the form's checks with their
 * messages. Requirements, rules and checks go to the contract extension, so the server holds them too.
 */
export function FormEditor({ layout, onLayout, base, ext, onExt, enums, resourceNames }: {
  layout: Entry[]; onLayout(fields: Entry[]): void; base: Contract; ext: ContractExtension; onExt(ext: ContractExtension): void; enums: Enums; resourceNames: string[];
}) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState<string | null>(null);
  const contract = useMemo(() => layerContract(base, ext), [base, ext]);
  const label = (name: string) => resolveLabel(contract.fields[name]?.label ?? name, i18n.language);
  const ruleFields = useMemo<RuleField[]>(() => Object.entries(contract.fields).filter(([, d]) => !d.sealed && d.type !== 'json' && d.type !== 'array').map(([name, d]) => {
    const opts = Array.isArray(d.options) ? d.options : typeof d.options === 'string' && !d.options.startsWith('resource:') ? enums[d.options] : undefined;
    return { name, label: resolveLabel(d.label ?? name, i18n.language), values: opts?.map((o) => ({ value: String(o.value), label: resolveLabel(o.label, i18n.language) })),
      ...(!opts && (d.type === 'integer' || d.type === 'number') ? { numeric: true } : {}) };
  }), [contract, enums, i18n.language]);
  const layouts = layout.map(asLayout);
  const own = Object.keys(ext.fields ?? {});

  const requiredBox = (name: string) => {
    const byBase = base.required?.includes(name);
    return <Checkbox label={t('designer.required')} checked={!!byBase || !!ext.required?.includes(name)} disabled={!!byBase}
      onChange={(_, d) => onExt(withRequired(ext, name, !!d.checked))} data-testid={`form-required-${name}`} />;
  };
  const rulesButton = (name: string) => {
    const count = Number(!!ext.rules?.visibleIf?.[name]) + Number(!!ext.rules?.requiredIf?.[name]);
    return (
      <Button size="small" appearance={open === name ? 'primary' : 'secondary'} icon={<Flow20Regular />} onClick={() => setOpen(open === name ? null : name)} data-testid={`form-rules-${name}`}>
        {t('designer.rules')}{count ? <Badge size="small" appearance="tint" className={s.count}>{count}</Badge> : null}
      </Button>
    );
  };
  const rules = (name: string) => (open === name ? (
    <FieldRules field={name} fields={ruleFields} visibleIf={ext.rules?.visibleIf?.[name]} requiredIf={ext.rules?.requiredIf?.[name]}
      onChange={(kind, rule) => onExt(withRule(ext, kind, name, rule))} />
  ) : null);
  const inLayout = (name: string) => layouts.some((l) => l.field === name);
  // An added field not in the layout is drawn after every other; placed, it keeps its place and is dragged like the others.
  const place = (name: string, before: string) => {
    const at = layouts.findIndex((l) => l.field === before);
    const next = [...layouts];
    next.splice(at < 0 ? next.length : at, 0, { field: name });
    onLayout(next.map(asEntry));
  };
  const remove = (name: string) => {
    onExt(withoutField(ext, name));
    if (inLayout(name)) onLayout(layouts.filter((l) => l.field !== name).map(asEntry));
  };
  const setLayout = <K extends OptionalKey<FormFieldLayout>>(i: number, key: K, value: FormFieldLayout[K]) =>
    onLayout(layouts.map((l, j) => asEntry(j === i ? setOrClear(l, key, value) : l)));

  return (
    <div className={s.root} data-testid="designer-form">
      <SortableList items={layouts} idOf={(l) => l.field} labelOf={(l) => label(l.field)} onMove={(from, to) => onLayout(move(layouts, from, to).map(asEntry))}
        render={(l, i) => (
          <>
            <div className={s.name}><span>{l.label ? resolveLabel(l.label, i18n.language) : label(l.field)}</span><span className={s.code}>{l.field}</span></div>
            <LabelInputs value={l.label} placeholder={contract.fields[l.field]?.label} onChange={(v) => setLayout(i, 'label', v)} testId={`form-label-${l.field}`} />
            <span className={s.small}>{t('designer.help')}</span>
            <LabelInputs value={l.help} onChange={(v) => setLayout(i, 'help', v)} testId={`form-help-${l.field}`} />
            {/* An added field's requirement and rules are set on its own row below. */}
            {own.includes(l.field) ? <span className={s.small}>{t('designer.addedField')}</span> : <>{requiredBox(l.field)}{rulesButton(l.field)}{rules(l.field)}</>}
          </>
        )} />
      <b>{t('designer.ownFields')}</b>
      {own.length ? own.map((name) => {
        const def = ext.fields![name];
        const options = Array.isArray(def.options) ? def.options.map((o) => resolveLabel(o.label, i18n.language)).join(' / ') : def.options ?? '';
        return (
          <div key={name} data-testid={`own-field-${name}`} style={{ display: 'flex', flexWrap: 'wrap', gap: 8, alignItems: 'center', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, padding: 4 }}>
            <div className={s.name}><span>{label(name)}</span><span className={s.code}>{name} · {t(`designer.types.${def.type}`)}</span></div>
            <LabelInputs value={def.label} onChange={(v) => onExt(withField(ext, name, { ...def, label: v as InlineLabel }))} testId={`own-label-${name}`} />
            <span className={s.small}>{options}</span>
            {requiredBox(name)}
            {rulesButton(name)}
            {inLayout(name) ? <span className={s.small} data-testid={`own-placed-${name}`}>{t('designer.placedInForm')}</span> : (
              <Select size="small" value="" aria-label={t('designer.placeInForm')} onChange={(_, d) => d.value && place(name, d.value)} data-testid={`own-place-${name}`}>
                <option value="">{t('designer.atFormEnd')}</option>
                {layouts.map((l) => <option key={l.field} value={l.field}>{t('designer.placeBefore', { field: l.label ? resolveLabel(l.label, i18n.language) : label(l.field) })}</option>)}
                <option value="*">{t('designer.placeAtEnd')}</option>
              </Select>
            )}
            <Button size="small" appearance="subtle" icon={<Delete20Regular />} aria-label={t('designer.remove')} title={t('designer.remove')} onClick={() => remove(name)} />
            {rules(name)}
          </div>
        );
      }) : <span className={s.small}>{t('designer.noOwnFields')}</span>}
      <NewFieldForm taken={Object.keys(contract.fields)} enumNames={Object.keys(enums).sort()} resourceNames={resourceNames}
        onAdd={(name, def, required) => { const next = withField(ext, name, def); onExt(required ? withRequired(next, name, true) : next); setOpen(name); }} />
      <ChecksEditor base={base.rules?.checks ?? []} ext={ext} onExt={onExt} fields={ruleFields} />
    </div>
  );
}
