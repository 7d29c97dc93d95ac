import { Button, Checkbox, Select, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { defaultOperator, operatorsFor } from '../../../core/customSearch';
import { move, setOrClear, type OptionalKey } from '../../../core/designerDraft';
import type { Operator } from '../../../core/filters';
import { resolveLabel } from '../../../core/labels';
import type { ResourceField, SearchItem, SearchSchema, SearchWidget } from '../../../core/pageSchema';
import { pickableFields, resolveSearchItem } from '../../../core/resolvePage';
import { noRules, type RuleResolver } from '../../../core/rules';
import { LabelInputs } from './LabelInputs';
import { SortableList } from './SortableList';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  bar: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', flexWrap: 'wrap' },
  name: { width: '170px', display: 'flex', flexDirection: 'column' },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
  offered: { color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200, maxWidth: '260px' },
});

const WIDGETS: SearchWidget[] = ['input', 'number', 'numberrange', 'select', 'multiselect', 'selectinput', 'date', 'daterange', 'datetimerange', 'boolean'];

/**
 * A list page's search: the bar's and the drawer's items in order (drag to reorder), where each shows, its label
 * in both languages, its widget, the operator it searches with by default among those the hospital's
 * search-operators rules offer for it (the same evaluation the custom search makes), whether the custom search
 * offers it; an item is removed to hide it and added back for any field the resource lets filter, or one the hospital
 * added to it (the server filters those by their value in the row's `extra`).
 */
export function SearchEditor({ search, fields, resolve, onChange }: { search: SearchSchema | undefined; fields: Record<string, ResourceField>; resolve: RuleResolver | undefined; onChange(search: SearchSchema): void }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const [adding, setAdding] = useState('');
  const items = search?.items ?? [];
  const keyOf = (item: SearchItem) => item.key ?? item.field;
  const fieldLabel = (name: string) => resolveLabel(fields[name]?.label ?? name, i18n.language);
  const opLabel = (op: Operator) => t(`search.operators.${op}`, { defaultValue: op });
  const put = (next: SearchItem[]) => onChange({ ...search, items: next });
  // Sets or clears (undefined, false, '') one property of a search item, or of the search.
  const update = <K extends OptionalKey<SearchItem>>(i: number, key: K, value: SearchItem[K] | false) =>
    put(items.map((x, j) => (j === i ? setOrClear(x, key, value) : x)));
  const flag = (key: 'keyword' | 'manual', on: boolean) => onChange(setOrClear({ ...search, items }, key, on));
  // What the resource declares internal (ids, bookkeeping times, versions) is not offered; each by its label.
  const free = pickableFields(fields, Object.keys(fields).filter((f) => fields[f].filter && !items.some((x) => keyOf(x) === f)), i18n.language);
  const option = (f: { name: string; label: string }) => <option key={f.name} value={f.name}>{f.label}</option>;
  const added = free.filter((f) => f.added);

  return (
    <div className={s.root} data-testid="designer-search">
      <div className={s.bar}>
        <Checkbox label={t('designer.searchKeyword')} checked={!!search?.keyword} onChange={(_, d) => flag('keyword', !!d.checked)} data-testid="search-keyword" />
        <Checkbox label={t('designer.searchManual')} checked={!!search?.manual} onChange={(_, d) => flag('manual', !!d.checked)} data-testid="search-manual" />
      </div>
      <SortableList items={items} idOf={keyOf} labelOf={(x) => fieldLabel(x.field)} onMove={(from, to) => put(move(items, from, to))}
        render={(item, i) => {
          const key = keyOf(item);
          const resolved = resolveSearchItem(item, fields);
          const offered = operatorsFor(resolved, resolve ?? noRules);
          const fallback = defaultOperator({ widget: resolved.widget });
          const choices = [...new Set<Operator>([...offered, ...(item.operator ? [item.operator] : [])])];
          return (
            <>
              <div className={s.name}><span>{item.label ? resolveLabel(item.label, i18n.language) : fieldLabel(item.field)}</span><span className={s.code}>{key}{fields[item.field]?.added ? ` · ${t('designer.addedField')}` : ''}</span></div>
              <Select size="small" aria-label={t('designer.searchPlace')} value={item.drawerOnly ? 'drawer' : 'bar'} onChange={(_, d) => update(i, 'drawerOnly', d.value === 'drawer')} data-testid={`search-place-${key}`}>
                <option value="bar">{t('designer.searchOnBar')}</option>
                <option value="drawer">{t('designer.searchInDrawer')}</option>
              </Select>
              <LabelInputs value={item.label} placeholder={fields[item.field]?.label} onChange={(l) => update(i, 'label', l)} testId={`search-label-${key}`} />
              <Select size="small" aria-label={t('designer.searchWidget')} value={item.widget ?? ''} onChange={(_, d) => update(i, 'widget', WIDGETS.find((w) => w === d.value))} data-testid={`search-widget-${key}`}>
                <option value="">{t('designer.widgetDefault', { widget: t(`designer.widgets.${resolveSearchItem({ ...item, widget: undefined }, fields).widget}`) })}</option>
                {WIDGETS.map((w) => <option key={w} value={w}>{t(`designer.widgets.${w}`)}</option>)}
              </Select>
              <Select size="small" aria-label={t('designer.searchOperator')} value={item.operator ?? ''} onChange={(_, d) => update(i, 'operator', choices.find((op) => op === d.value))} data-testid={`search-operator-${key}`}>
                <option value="">{t('designer.operatorDefault', { operator: opLabel(fallback) })}</option>
                {choices.map((op) => <option key={op} value={op}>{opLabel(op)}</option>)}
              </Select>
              <Checkbox label={t('designer.customSearch')} checked={!!item.customSearch} onChange={(_, d) => update(i, 'customSearch', !!d.checked)} data-testid={`search-custom-${key}`} />
              <span className={s.offered} data-testid={`search-offered-${key}`}>
                {offered.length ? t('designer.operatorsOffered', { list: offered.map(opLabel).join(' · ') }) : t('designer.noOperatorsOffered')}
              </span>
              <Button size="small" appearance="subtle" icon={<Delete20Regular />} aria-label={t('designer.hideSearchItem')} title={t('designer.hideSearchItem')}
                onClick={() => put(items.filter((_, j) => j !== i))} data-testid={`search-remove-${key}`} />
            </>
          );
        }} />
      <div className={s.bar}>
        <Select size="small" aria-label={t('designer.addSearchItem')} value={adding} onChange={(_, d) => setAdding(d.value)} data-testid="search-add-field">
          <option value="">{t('designer.pickField')}</option>
          {free.filter((f) => !f.added).map(option)}
          {added.length ? <optgroup label={t('designer.ownFields')}>{added.map(option)}</optgroup> : null}
        </Select>
        <Button size="small" icon={<Add20Regular />} disabled={!adding} onClick={() => { put([...items, { field: adding }]); setAdding(''); }} data-testid="search-add">{t('designer.addSearchItem')}</Button>
      </div>
    </div>
  );
}
