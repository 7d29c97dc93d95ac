import type { DatePickerProps } from '@fluentui/react-datepicker-compat';
import type { TFunction } from 'i18next';
import { formatDate } from '../../core/dateTime';

type CalendarStrings = NonNullable<DatePickerProps['strings']>;
type DateFormatting = NonNullable<DatePickerProps['dateTimeFormatter']>;

/** Names of the twelve months or seven days (Sunday first, as the calendar wants) in `lang`, from the browser's Intl. */
const names = (lang: string, count: number, at: (i: number) => Date, options: Intl.DateTimeFormatOptions) => {
  const format = new Intl.DateTimeFormat(lang, options);
  return Array.from({ length: count }, (_, i) => format.format(at(i)));
};

/**
 * The calendar's words in the UI language (Fluent's defaults are English only): month and day names from Intl,
 * the buttons' labels from the translation files. Headings follow the language ("2026年11月" / "November 2026");
 * the chosen day itself always reads YYYY-MM-DD (spec §9).
 */
export function calendarText(lang: string, t: TFunction): { strings: CalendarStrings; formatter: DateFormatting; firstDayOfWeek: 0 | 1 } {
  const month = (i: number) => new Date(2026, i, 1);
  const day = (i: number) => new Date(2026, 1, 1 + i); // 2026-02-01 is a Sunday
  const strings: CalendarStrings = {
    months: names(lang, 12, month, { month: 'long' }),
    shortMonths: names(lang, 12, month, { month: 'short' }),
    days: names(lang, 7, day, { weekday: 'long' }),
    shortDays: names(lang, 7, day, { weekday: 'narrow' }),
    goToToday: t('dateTime.goToToday'),
    prevMonthAriaLabel: t('dateTime.previousMonth'),
    nextMonthAriaLabel: t('dateTime.nextMonth'),
    prevYearAriaLabel: t('dateTime.previousYear'),
    nextYearAriaLabel: t('dateTime.nextYear'),
    prevYearRangeAriaLabel: t('dateTime.previousYears'),
    nextYearRangeAriaLabel: t('dateTime.nextYears'),
    closeButtonAriaLabel: t('dateTime.close'),
    selectedDateFormatString: t('dateTime.selectedDate'),
    todayDateFormatString: t('dateTime.todayDate'),
    monthPickerHeaderAriaLabel: t('dateTime.pickYear'),
    yearPickerHeaderAriaLabel: t('dateTime.pickMonth'),
    weekNumberFormatString: t('dateTime.weekNumber'),
    dayMarkedAriaLabel: t('dateTime.marked'),
  };
  const formatter: DateFormatting = {
    formatDay: (d) => new Intl.DateTimeFormat(lang, { day: 'numeric' }).format(d).replace(/\D+$/, ''),
    formatMonth: (d, s) => s.months[d.getMonth()],
    formatYear: (d) => String(d.getFullYear()),
    formatMonthDayYear: (d) => formatDate(d),
    formatMonthYear: (d) => new Intl.DateTimeFormat(lang, { year: 'numeric', month: 'long' }).format(d),
  };
  // Weeks start on Monday in China (GB/T 7408), on Sunday in the US.
  return { strings, formatter, firstDayOfWeek: lang.startsWith('zh') ? 1 : 0 };
}
