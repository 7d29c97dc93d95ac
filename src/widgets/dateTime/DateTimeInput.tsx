import { makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { DatePicker } from '@fluentui/react-datepicker-compat';
import { TimePicker, type TimePickerProps } from '@fluentui/react-timepicker-compat';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { atTime, formatDate, formatTime, parseDate, parseTime } from '../../core/dateTime';
import { calendarText } from './calendarText';

const useStyles = makeStyles({
  root: { display: 'flex', gap: tokens.spacingHorizontalXS, width: '100%' },
  date: { flexGrow: 1, minWidth: '8.5em' },
  // Fluent's combobox is at least 250 px wide by default; a time needs far less.
  time: { width: '7.5em', minWidth: '7.5em', flexShrink: 0 },
  timeInput: { width: '100%', minWidth: 0 },
});

export interface DateTimeInputProps {
  id?: string;
  /** A local date-time, or null when empty. */
  value: Date | null;
  onChange(value: Date | null): void;
  /** Without the time picker: a date alone (at local midnight). */
  dateOnly?: boolean;
  disabled?: boolean;
  readOnly?: boolean;
  'aria-describedby'?: string;
  'aria-invalid'?: boolean;
  /** The date's and the time's accessible names (default: "Date", "Time"): where several pickers share a row, each end its own. */
  dateLabel?: string;
  timeLabel?: string;
  'data-testid'?: string;
  className?: string;
}

/**
 * A date and a time picked with Fluent's DatePicker and TimePicker, shown as the spec writes them
 * (YYYY-MM-DD and HH:mm:ss, 24 hours) in both languages, never the browser's own format (mm/dd/yyyy, a.m./p.m.).
 * Both can be typed; the calendar and the half-hour list help. A day without a time is midnight.
 */
export function DateTimeInput({ id, value, onChange, dateOnly, disabled, readOnly, dateLabel, timeLabel, className, 'data-testid': testId, ...aria }: DateTimeInputProps) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const text = useMemo(() => calendarText(i18n.language, t), [i18n.language, t]);
  const [timeText, setTimeText] = useState(value ? formatTime(value) : '');
  const valueKey = value?.getTime() ?? null;
  // The field changed from outside (a reset, a loaded record): show its time.
  useEffect(() => { setTimeText(value ? formatTime(value) : ''); }, [valueKey]); // eslint-disable-line react-hooks/exhaustive-deps -- valueKey is the time of the value; the Date is new each render

  const off = disabled || readOnly;
  const onTime: TimePickerProps['onTimeChange'] = (_, d) => {
    const time = d.selectedTime ?? (d.selectedTimeText ? null : undefined);
    if (time === null) { // typed, not a time: keep the text for the user to fix, the value as it was
      setTimeText(d.selectedTimeText ?? '');
      return;
    }
    setTimeText(time ? formatTime(time) : '');
    onChange(atTime(value ?? new Date(), time ?? null));
  };
  return (
    <div className={mergeClasses(s.root, className)} data-testid={testId}>
      <DatePicker id={id} className={s.date} value={value} disabled={off} allowTextInput={!off} placeholder={t('dateTime.datePlaceholder')}
        aria-label={dateLabel ?? t('dateTime.date')} aria-describedby={aria['aria-describedby']} aria-invalid={aria['aria-invalid']}
        formatDate={(d) => (d ? formatDate(d) : '')} parseDateFromString={(v) => parseDate(v)}
        strings={text.strings} dateTimeFormatter={text.formatter} firstDayOfWeek={text.firstDayOfWeek}
        onSelectDate={(d) => onChange(d ? atTime(d, value) : null)} />
      {!dateOnly && (
        <TimePicker className={s.time} input={{ className: s.timeInput }} freeform hourCycle="h23" showSeconds increment={30} disabled={off || !value}
          placeholder={t('dateTime.timePlaceholder')} aria-label={timeLabel ?? t('dateTime.time')} dateAnchor={value ?? undefined} selectedTime={value}
          formatDateToTimeString={formatTime} value={timeText} onInput={(e) => setTimeText((e.target as HTMLInputElement).value)}
          parseTimeStringToDate={(v) => {
            const time = parseTime(v);
            return time ? { date: atTime(value ?? new Date(), time) } : { date: null, errorType: 'invalid-input' };
          }}
          onTimeChange={onTime} />
      )}
    </div>
  );
}
