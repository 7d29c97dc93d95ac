import { Input } from '@fluentui/react-components';
import { DateRangePicker } from '../../DateRangePicker';
import { registerSearchWidget, type SearchInputProps } from './registry';
import { useFieldStyles } from './styles';

/** A day, or a range of days or of date-times (spec §9 formats, quick ranges). */
function DateInput({ value, label, onChange }: SearchInputProps) {
  const s = useFieldStyles();
  return <Input className={s.full} type="date" aria-label={label} value={typeof value === 'string' ? value : ''} onChange={(_, d) => onChange(d.value || undefined)} />;
}

function RangeInput({ widget, value, label, stacked, onChange }: SearchInputProps) {
  return <DateRangePicker kind={widget as 'daterange' | 'datetimerange'} stacked={stacked} aria-label={label} value={value} onChange={onChange} />;
}

registerSearchWidget('date', DateInput);
registerSearchWidget('daterange', RangeInput);
registerSearchWidget('datetimerange', RangeInput);
