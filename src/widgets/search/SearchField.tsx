import { Dropdown, Input, Option, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import type { SearchField as SearchFieldSchema, SearchWidget } from '../../core/pageSchema';
import { DateRangePicker } from '../DateRangePicker';
import { SelectInput } from '../SelectInput';
import { choiceOf, useChoicesHook } from './choices';

const useStyles = makeStyles({
  full: { width: '100%', minWidth: '0' },
  pair: { display: 'flex', gap: '4px', alignItems: 'center', width: '100%' },
});

export interface SearchFieldProps {
  item: Pick<SearchFieldSchema, 'widget' | 'options' | 'props'>;
  /** Overrides the item's widget (custom search: `between` on a number asks for a pair). */
  widget?: SearchWidget;
  multiple?: boolean;
  value: unknown;
  label: string;
  /** In the narrow drawer, ranges put their two ends one above the other. */
  stacked?: boolean;
  onChange(value: unknown): void;
}

const numberOrEmpty = (text: string) => (text === '' ? undefined : Number(text));

/** One search input by item type (spec §3 "Search form item": input, select, ranges …). */
export function SearchField({ item, widget = item.widget, multiple, value, label, stacked, onChange }: SearchFieldProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const choices = useChoicesHook()(item.options);
  // The label stands beside or above the input; a placeholder only when the schema gives one.
  const placeholder = item.props?.placeholder as string | undefined;

  switch (widget) {
    case 'number':
      return <Input className={s.full} type="number" aria-label={label} placeholder={placeholder} value={value === undefined || value === null ? '' : String(value)}
        onChange={(_, d) => onChange(numberOrEmpty(d.value))} />;
    case 'numberrange': {
      const pair = Array.isArray(value) ? value : [];
      const set = (i: number, v: string) => {
        const next = [pair[0], pair[1]];
        next[i] = numberOrEmpty(v);
        onChange(next.every((x) => x === undefined) ? [] : next);
      };
      return (
        <span className={s.pair} role="group" aria-label={label}>
          <Input className={s.full} type="number" aria-label={t('search.from')} value={pair[0] === undefined || pair[0] === null ? '' : String(pair[0])} onChange={(_, d) => set(0, d.value)} />
          <span aria-hidden>–</span>
          <Input className={s.full} type="number" aria-label={t('search.to')} value={pair[1] === undefined || pair[1] === null ? '' : String(pair[1])} onChange={(_, d) => set(1, d.value)} />
        </span>
      );
    }
    case 'date':
      return <Input className={s.full} type="date" aria-label={label} value={typeof value === 'string' ? value : ''} onChange={(_, d) => onChange(d.value || undefined)} />;
    case 'daterange':
    case 'datetimerange':
      return <DateRangePicker kind={widget} stacked={stacked} aria-label={label} value={value} onChange={onChange} />;
    case 'selectinput':
      return <SelectInput className={s.full} aria-label={label} placeholder={placeholder} value={value === undefined || value === null ? '' : String(value)}
        options={choices.map((c) => ({ value: String(c.value), label: c.label }))} onValueChange={(v) => onChange(v || undefined)} />;
    case 'select':
    case 'multiselect':
    case 'boolean': {
      const list = widget === 'boolean' && !choices.length ? [{ value: 1, label: t('search.yes') }, { value: 0, label: t('search.no') }] : choices;
      const many = multiple ?? widget === 'multiselect';
      const values = (Array.isArray(value) ? value : value === undefined || value === null || value === '' ? [] : [value]).map(String);
      const shown = values.map((v) => choiceOf(list, v)?.label ?? v).join(', ');
      return (
        <Dropdown className={s.full} aria-label={label} placeholder={placeholder} multiselect={many} clearable value={shown} selectedOptions={values}
          onOptionSelect={(_, d) => {
            const pick = (v: string) => choiceOf(list, v)?.value ?? v;
            if (many) onChange(d.selectedOptions.map(pick));
            else onChange(d.optionValue === undefined || !d.selectedOptions.length ? undefined : pick(d.optionValue));
          }}>
          {list.map((c) => <Option key={String(c.value)} value={String(c.value)}>{c.label}</Option>)}
        </Dropdown>
      );
    }
    default:
      return <Input className={s.full} aria-label={label} placeholder={placeholder} value={typeof value === 'string' || typeof value === 'number' ? String(value) : ''}
        onChange={(_, d) => onChange(d.value === '' ? undefined : d.value)} />;
  }
}
