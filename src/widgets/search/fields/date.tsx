import { formatDate, parseDate } from '../../../core/dateTime';
import { DateTimeInput } from '../../dateTime/DateTimeInput';
import { DateRangePicker } from '../../DateRangePicker';
import { registerSearchWidget, type SearchInputProps } from './registry';
import { useFieldStyles } from './styles';

/** A day, or a range of days or of date-times (spec §9 formats, quick ranges), in Fluent's pickers: never the browser's mm/dd/yyyy. */
function DateInput({ value, label, onChange }: SearchInputProps) {
  const s = useFieldStyles();
  return <DateTimeInput className={s.full} dateOnly dateLabel={label} value={parseDate(typeof value === 'string' ? value.slice(0, 10) : undefined)} onChange={(d) => onChange(d ? formatDate(d) : undefined)} />;
}

function RangeInput({ widget, value, label, stacked, onChange }: SearchInputProps) {
  return <DateRangePicker kind={widget as 'daterange' | 'datetimerange'} stacked={stacked} aria-label={label} value={value} onChange={onChange} />;
}

registerSearchWidget('date', DateInput);
registerSearchWidget('daterange', RangeInput);
registerSearchWidget('datetimerange', RangeInput);
