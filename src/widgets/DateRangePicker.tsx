import { Button, Menu, MenuItem, MenuList, MenuPopover, MenuTrigger, makeStyles, tokens } from '@fluentui/react-components';
import { CalendarLtr20Regular } from '@fluentui/react-icons';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DATE_SHORTCUTS, PICKER_DEBOUNCE_MS, rangeValue, shortcutRange, type RangeKind } from '../core/dateRanges';
import { atTime, formatDate, fromWallClock, toWallClock } from '../core/dateTime';
import { DateTimeInput } from './dateTime/DateTimeInput';

const useStyles = makeStyles({
  root: { display: 'inline-flex', alignItems: 'center', gap: tokens.spacingHorizontalXS, flexWrap: 'nowrap', width: '100%' },
  /** Narrow places (the 420 px drawer): the two ends one above the other. */
  stacked: { display: 'grid', gridTemplateColumns: '1fr auto', alignItems: 'center', gap: tokens.spacingVerticalXS, width: '100%' },
  input: { minWidth: '0', flexGrow: 1 },
});

export interface DateRangePickerProps {
  value: unknown;
  onChange(value: string[]): void;
  kind?: RangeKind;
  'aria-label'?: string;
  now?: () => Date;
  stacked?: boolean;
}

const toInput = (v: unknown, kind: RangeKind) => (typeof v === 'string' ? (kind === 'datetimerange' ? v.replace(' ', 'T') : v.slice(0, 10)) : '');

/**
 * The date-range picker of spec §5: two ends and the shortcuts (today … previous year, weeks from
 * Monday); a datetimerange defaults to 00:00:00–23:59:59. It emits only when both ends are filled,
 * an empty array when both are empty, debounced 10 ms.
 */
export function DateRangePicker({ value, onChange, kind = 'daterange', now = () => new Date(), stacked, ...aria }: DateRangePickerProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const pair = Array.isArray(value) ? value : [];
  const [from, setFrom] = useState(toInput(pair[0], kind));
  const [to, setTo] = useState(toInput(pair[1], kind));
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  const external = `${pair[0] ?? ''}|${pair[1] ?? ''}`;

  useEffect(() => {
    setFrom(toInput(pair[0], kind));
    setTo(toInput(pair[1], kind));
  }, [external, kind]); // eslint-disable-line react-hooks/exhaustive-deps -- external holds the pair by value; the array is new each render
  useEffect(() => () => clearTimeout(timer.current), []);

  const emit = (a: string, b: string) => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => {
      const out = rangeValue(a, b, kind);
      if (out) onChange(out);
    }, PICKER_DEBOUNCE_MS);
  };
  const timed = kind === 'datetimerange';
  // Each end in Fluent's date (and time) picker, shown YYYY-MM-DD HH:mm:ss in both languages; kept as the text
  // rangeValue reads (`YYYY-MM-DD`, or `YYYY-MM-DDTHH:mm:ss`). A range's end picked as a day alone ends at 23:59:59.
  const text = (d: Date | null) => (d ? (timed ? toWallClock(d) : formatDate(d)) : '');
  const endOfDay = (d: Date | null) => (d && timed && !to && d.getHours() === 0 && d.getMinutes() === 0 && d.getSeconds() === 0
    ? atTime(d, { hours: 23, minutes: 59, seconds: 59 }) : d);
  const startInput = (
    <DateTimeInput className={s.input} dateOnly={!timed} value={fromWallClock(from)} dateLabel={t('dateRange.start')} timeLabel={`${t('dateRange.start')} ${t('dateTime.time')}`}
      data-testid="date-range-start" onChange={(d) => { const v = text(d); setFrom(v); emit(v, to); }} />
  );
  const endInput = (
    <DateTimeInput className={s.input} dateOnly={!timed} value={fromWallClock(to)} dateLabel={t('dateRange.end')} timeLabel={`${t('dateRange.end')} ${t('dateTime.time')}`}
      data-testid="date-range-end" onChange={(d) => { const v = text(endOfDay(d)); setTo(v); emit(from, v); }} />
  );
  const shortcuts = (
    <Menu>
      <MenuTrigger disableButtonEnhancement>
        <Button icon={<CalendarLtr20Regular />} appearance="subtle" aria-label={t('dateRange.shortcuts')} title={t('dateRange.shortcuts')} />
      </MenuTrigger>
      <MenuPopover>
        <MenuList>
          {DATE_SHORTCUTS.map((key) => (
            <MenuItem key={key} onClick={() => {
              const [a, b] = shortcutRange(key, now(), kind);
              setFrom(toInput(a, kind));
              setTo(toInput(b, kind));
              emit(a, b);
            }}>
              {t(`dateRange.${key}`)}
            </MenuItem>
          ))}
        </MenuList>
      </MenuPopover>
    </Menu>
  );
  return stacked ? (
    <span className={s.stacked} role="group" aria-label={aria['aria-label']}>{startInput}{shortcuts}{endInput}</span>
  ) : (
    <span className={s.root} role="group" aria-label={aria['aria-label']}>{startInput}<span aria-hidden>–</span>{endInput}{shortcuts}</span>
  );
}
