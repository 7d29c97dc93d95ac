import { Button, Dropdown, Field, Input, Option, makeStyles, tokens } from '@fluentui/react-components';
import type { WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import en from '../../i18n/locales/en-US/pages/specimens-widget.json';
import zh from '../../i18n/locales/zh-CN/pages/specimens-widget.json';
import { addPageWords } from '../../i18n/pageWords';
import { fromWallClock, toWallClock } from '../../core/dateTime';
import { blankSpecimen, setSpecimen, specimenRows, type SpecimenRow } from '../../core/specimenRows';
import { DateTimeInput } from '../dateTime/DateTimeInput';
import { useChoicesHook } from '../search/choices';

addPageWords({ 'zh-CN': zh, 'en-US': en });

const useStyles = makeStyles({
  list: { display: 'grid', gap: tokens.spacingVerticalS },
  row: {
    display: 'grid', gap: tokens.spacingHorizontalS, alignItems: 'end',
    // Two lines a specimen: the times need a day and a time picker each (DateTimeInput), wider than a text field.
    gridTemplateColumns: 'minmax(0, 1.4fr) minmax(0, 0.7fr) minmax(0, 1.4fr) auto',
    gridTemplateAreas: '"name type fixative remove" "leave location fixed remove"',
    paddingBottom: tokens.spacingVerticalS, borderBottom: `1px solid ${tokens.colorNeutralStroke2}`,
  },
  name: { gridArea: 'name' },
  type: { gridArea: 'type' },
  fixative: { gridArea: 'fixative' },
  leave: { gridArea: 'leave' },
  location: { gridArea: 'location' },
  fixed: { gridArea: 'fixed' },
  remove: { gridArea: 'remove', alignSelf: 'center' },
});

/** Up to this many rows (the registration body's bound). */
const MAX_ROWS = 50;

/**
 * The registration form's specimens (spec §3: name, type, fixative, fixed date, location, leave-body time), one row
 * each, added and removed in place; the value is the array the register command takes. The form's rules check it
 * (every specimen named, fixed no earlier than it left the body) on both sides. Times are picked as YYYY-MM-DD and
 * HH:mm:ss (DateTimeInput) and kept as wall-clock text, `YYYY-MM-DDTHH:mm:ss`.
 */
export default function SpecimensWidget({ id, value, onChange, disabled, readonly }: WidgetProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const types = useChoicesHook()('specimen_type');
  const rows = specimenRows(value);
  const shown = rows.length ? rows : [blankSpecimen()];
  const put = (i: number, key: keyof SpecimenRow, v: unknown) => onChange(setSpecimen(shown, i, key, v));
  const off = disabled || readonly;
  return (
    <div className={s.list} id={id} data-testid="specimens-widget">
      {shown.map((r, i) => (
        <div key={i} className={s.row} role="group" aria-label={t('specimensWidget.row', { n: i + 1 })} data-specimen={i}>
          <Field className={s.name} label={t('specimensWidget.name')} required>
            <Input value={r.name ?? ''} disabled={off} data-testid={`specimen-${i}-name`} onChange={(_e, d) => put(i, 'name', d.value)} />
          </Field>
          <Field className={s.type} label={t('specimensWidget.type')}>
            <Dropdown disabled={off} data-testid={`specimen-${i}-type`} value={types.find((c) => String(c.value) === String(r.specimen_type ?? ''))?.label ?? ''}
              selectedOptions={r.specimen_type === undefined ? [] : [String(r.specimen_type)]}
              onOptionSelect={(_e, d) => put(i, 'specimen_type', d.optionValue === undefined ? undefined : Number(d.optionValue))}>
              {types.map((c) => <Option key={String(c.value)} value={String(c.value)}>{c.label}</Option>)}
            </Dropdown>
          </Field>
          <Field className={s.fixative} label={t('specimensWidget.fixative')}>
            <Input value={r.fixative ?? ''} disabled={off} data-testid={`specimen-${i}-fixative`} onChange={(_e, d) => put(i, 'fixative', d.value)} />
          </Field>
          <Field className={s.leave} label={t('specimensWidget.leaveBodyAt')}>
            <DateTimeInput value={fromWallClock(r.leave_body_at)} disabled={off} data-testid={`specimen-${i}-leave_body_at`}
              dateLabel={t('specimensWidget.leaveBodyAt')} timeLabel={`${t('specimensWidget.leaveBodyAt')} ${t('dateTime.time')}`}
              onChange={(d) => put(i, 'leave_body_at', d ? toWallClock(d) : undefined)} />
          </Field>
          <Field className={s.location} label={t('specimensWidget.location')}>
            <Input value={r.location ?? ''} disabled={off} data-testid={`specimen-${i}-location`} onChange={(_e, d) => put(i, 'location', d.value)} />
          </Field>
          <Field className={s.fixed} label={t('specimensWidget.fixedAt')}>
            <DateTimeInput value={fromWallClock(r.fixed_at)} disabled={off} data-testid={`specimen-${i}-fixed_at`}
              dateLabel={t('specimensWidget.fixedAt')} timeLabel={`${t('specimensWidget.fixedAt')} ${t('dateTime.time')}`}
              onChange={(d) => put(i, 'fixed_at', d ? toWallClock(d) : undefined)} />
          </Field>
          <Button className={s.remove} appearance="subtle" disabled={off || shown.length === 1} aria-label={t('specimensWidget.remove', { n: i + 1 })}
            onClick={() => onChange(shown.filter((_r, j) => j !== i))}>×</Button>
        </div>
      ))}
      <div>
        <Button disabled={off || shown.length >= MAX_ROWS} data-testid="specimen-add" onClick={() => onChange([...shown, blankSpecimen()])}>{t('specimensWidget.add')}</Button>
      </div>
    </div>
  );
}
