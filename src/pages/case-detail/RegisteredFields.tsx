import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { extraOf, registeredFields, registeredValue, type RegisteredField } from '../../core/caseFields';
import { formatDateTime, fromStored } from '../../core/dateTime';
import type { LoadedSchema } from '../../core/pageSchema';
import { useChoices } from '../../engine/options';
import { loadSchema } from '../../engine/schemaApi';
import { useLabel } from '../../widgets/useLabel';

const useStyles = makeStyles({
  grid: { display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(240px, 1fr))', gap: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}` },
  wide: { gridColumn: '1 / -1' },
  label: { color: tokens.colorNeutralForeground3 },
});

/** The registration form whose fields the case shows (issue 31 item 9). */
const REGISTRATION_FORM = 'CaseRegistration';

/** Long texts (the clinical diagnosis) take the whole row. */
const WIDE = new Set(['clinical_diagnosis']);

function FieldValue({ field, row, extra }: { field: RegisteredField; row: Record<string, unknown>; extra: Record<string, unknown> }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { label } = useLabel();
  const value = registeredValue(row, extra, field.name);
  // Options only for a value to word: an empty field asks for no option rows (a subspecialty list).
  const choices = useChoices(value === undefined ? undefined : field.def.options);
  const word = (v: unknown) => {
    if (typeof v === 'boolean') return t(v ? 'lab.detail.yes' : 'lab.detail.no');
    if (field.def.type === 'datetime') { const d = fromStored(String(v)); return d ? formatDateTime(d) : String(v); }
    return choices.find((c) => String(c.value) === String(v))?.label ?? String(v);
  };
  const text = value === undefined ? t('lab.detail.notGiven') : Array.isArray(value) ? value.map(word).join(', ') : word(value);
  return (
    <Text className={WIDE.has(field.name) ? s.wide : undefined} data-testid={field.added ? `case-added-${field.name}` : `case-field-${field.name}`}
      data-empty={value === undefined ? 'true' : undefined}>
      <b className={s.label}>{label(field.def.label ?? field.name) || field.name}</b>: {text}
    </Text>
  );
}

/**
 * Every field registration stored on the case, as the hospital's registration form has them (its layout, labels,
 * option words and the fields it added, kept in `extra`): what was typed at the desk is what the case page shows.
 */
export function RegisteredFields({ row }: { row: Record<string, unknown> }) {
  const s = useStyles();
  const [form, setForm] = useState<LoadedSchema | null>(null);
  useEffect(() => {
    let live = true;
    loadSchema(REGISTRATION_FORM).then((l) => live && setForm(l), () => undefined);
    return () => { live = false; };
  }, []);
  if (!form) return null;
  const fields = registeredFields(form.schema.form?.fields ?? [], form.formContract ?? form.resource?.contract);
  const extra = extraOf(row.extra);
  return (
    <div className={s.grid} data-testid="case-registered">
      {fields.map((f) => <FieldValue key={f.name} field={f} row={row} extra={extra} />)}
    </div>
  );
}
