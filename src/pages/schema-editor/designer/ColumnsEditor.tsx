import { Button, Checkbox, Input, Select, makeStyles, tokens } from '@fluentui/react-components';
import { Add20Regular, Delete20Regular } from '@fluentui/react-icons';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { move, setOrClear, type OptionalKey } from '../../../core/designerDraft';
import { resolveLabel } from '../../../core/labels';
import { pickableFields } from '../../../core/resolvePage';
import type { CellKind, ColumnSchema, ResourceField } from '../../../core/pageSchema';
import { cellKinds } from '../../../engine/cells';
import { LabelInputs } from './LabelInputs';
import { SortableList } from './SortableList';

const useStyles = makeStyles({
  name: { width: '170px', display: 'flex', flexDirection: 'column' },
  code: { fontFamily: tokens.fontFamilyMonospace, fontSize: tokens.fontSizeBase100, color: tokens.colorNeutralForeground3 },
  add: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', marginTop: tokens.spacingVerticalS },
  gone: { fontSize: tokens.fontSizeBase100, color: tokens.colorPaletteRedForeground1 },
});

/**
 * A list page's columns: drag to reorder, show or hide, label in both languages, width, pinned, sortable,
 * the cell kind among those the engine registers; a column can be added for any field of the resource, or one
 * the hospital added to it (in the form designer; sortable as the resource field says, as the resource's own).
 */
export function ColumnsEditor({ columns, fields, onChange }: { columns: ColumnSchema[]; fields: Record<string, ResourceField>; onChange(columns: ColumnSchema[]): void }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const [adding, setAdding] = useState('');
  // Sets or clears (undefined, false, '') one property of a column.
  const update = <K extends OptionalKey<ColumnSchema>>(i: number, key: K, value: ColumnSchema[K] | false) =>
    onChange(columns.map((c, j) => (j === i ? setOrClear(c, key, value) : c)));
  const fieldLabel = (name: string) => resolveLabel(fields[name]?.label ?? name, i18n.language);
  // What the resource declares internal (ids, bookkeeping times, versions) is not offered; each by its label.
  const free = pickableFields(fields, Object.keys(fields).filter((f) => !columns.some((c) => c.field === f)), i18n.language);
  const option = (f: { name: string; label: string }) => <option key={f.name} value={f.name}>{f.label}</option>;
  const added = free.filter((f) => f.added);
  // A resource field the server sorts by only when declared sortable; an added field when its type has an order.
  const sortsBy = (f: string) => !fields[f]?.added || !!fields[f]?.sort;

  return (
    <div data-testid="designer-columns">
      <SortableList items={columns} idOf={(c) => c.field} labelOf={(c) => fieldLabel(c.field)} onMove={(from, to) => onChange(move(columns, from, to))}
        render={(c, i) => (
          <>
            <div className={s.name}><span>{c.label ? resolveLabel(c.label, i18n.language) : fieldLabel(c.field)}</span>
              <span className={s.code}>{c.field}{fields[c.field]?.added ? ` · ${t('designer.addedField')}` : ''}</span>
              {/* A hospital's field deleted after this override was saved: the list leaves the column out (resolvePage). */}
              {fields[c.field] ? null : <span className={s.gone} data-testid={`col-gone-${c.field}`}>{t('designer.fieldGone')}</span>}</div>
            <Checkbox label={t('designer.visible')} checked={!c.hidden} onChange={(_, d) => update(i, 'hidden', !d.checked)} data-testid={`col-visible-${c.field}`} />
            <LabelInputs value={c.label} placeholder={fields[c.field]?.label} onChange={(l) => update(i, 'label', l)} testId={`col-label-${c.field}`} />
            <Input size="small" type="number" min={40} style={{ width: 80 }} aria-label={t('designer.width')} placeholder={t('designer.width')} value={c.width ? String(c.width) : ''}
              onChange={(_, d) => update(i, 'width', d.value ? Math.max(40, Number(d.value) || 40) : undefined)} data-testid={`col-width-${c.field}`} />
            <Checkbox label={t('designer.pinned')} checked={!!c.pinned} onChange={(_, d) => update(i, 'pinned', !!d.checked)} />
            {/* An added array or JSON field has no order the server sorts by (resolvePage withAddedFields: sort false). */}
            <Checkbox label={t('designer.sortable')} checked={sortsBy(c.field) && (c.sortable ?? !!fields[c.field]?.sort)} disabled={!sortsBy(c.field)}
              title={sortsBy(c.field) ? undefined : t('designer.addedUnordered')} onChange={(_, d) => update(i, 'sortable', d.checked === !!fields[c.field]?.sort ? undefined : !!d.checked)} data-testid={`col-sortable-${c.field}`} />
            <Select size="small" aria-label={t('designer.cell')} value={c.cell ?? ''} onChange={(_, d) => update(i, 'cell', (d.value || undefined) as CellKind | undefined)}>
              <option value="">{t('designer.cellDefault')}</option>
              {cellKinds().map((k) => <option key={k} value={k}>{t(`designer.cellKind.${k}`, { defaultValue: k })}</option>)}
            </Select>
            <Button size="small" appearance="subtle" icon={<Delete20Regular />} aria-label={t('designer.removeColumn')} title={t('designer.removeColumn')}
              disabled={columns.length <= 1} onClick={() => onChange(columns.filter((_, j) => j !== i))} />
          </>
        )} />
      <div className={s.add}>
        <Select size="small" aria-label={t('designer.addColumn')} value={adding} onChange={(_, d) => setAdding(d.value)} data-testid="col-add-field">
          <option value="">{t('designer.pickField')}</option>
          {free.filter((f) => !f.added).map(option)}
          {added.length ? <optgroup label={t('designer.ownFields')}>{added.map(option)}</optgroup> : null}
        </Select>
        <Button size="small" icon={<Add20Regular />} disabled={!adding} onClick={() => { onChange([...columns, { field: adding }]); setAdding(''); }}>{t('designer.addColumn')}</Button>
      </div>
    </div>
  );
}
