import { Checkbox, Dropdown, Input, Option, SpinButton, Switch, Textarea, makeStyles } from '@fluentui/react-components';
import { ariaDescribedByIds, type RegistryWidgetsType, type WidgetProps } from '@rjsf/utils';
import { useTranslation } from 'react-i18next';
import { formatDate, fromStored, parseDate, toStored } from '../../core/dateTime';
import { DateTimeInput } from '../dateTime/DateTimeInput';
import { choiceOf, useChoicesHook, type Choice } from '../search/choices';
import SpecimensWidget from './SpecimensWidget';

/**
 * rjsf widgets drawn with Fluent UI v9 (the published Fluent theme needs React ≤ 17). Options come
 * from "ui:options.options" (an enum name or resource:<name>) through the engine's choices hook, else
 * from the schema's own enum.
 */
const useStyles = makeStyles({ full: { width: '100%' } });

const blank = (v: unknown) => v === undefined || v === null || v === '';

function TextLike(props: WidgetProps & { inputType?: string }) {
  const s = useStyles();
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, autofocus, placeholder, options, inputType, schema, rawErrors } = props;
  const type = inputType ?? (schema.format === 'email' ? 'email' : schema.format === 'uri' ? 'url' : 'text');
  return (
    <Input id={id} name={id} className={s.full} type={type as 'text'} value={blank(value) ? '' : String(value)} disabled={disabled} readOnly={readonly}
      autoFocus={autofocus} placeholder={placeholder} aria-describedby={ariaDescribedByIds(id)} aria-invalid={!!rawErrors?.length}
      autoComplete={type === 'password' ? 'new-password' : undefined}
      onChange={(_, d) => onChange(d.value === '' ? options.emptyValue : d.value)}
      onBlur={(e) => onBlur(id, e.target.value)} onFocus={(e) => onFocus(id, e.target.value)} />
  );
}

export const TextWidget = (p: WidgetProps) => <TextLike {...p} />;
export const PasswordWidget = (p: WidgetProps) => <TextLike {...p} inputType="password" />;
export const EmailWidget = (p: WidgetProps) => <TextLike {...p} inputType="email" />;
export const URLWidget = (p: WidgetProps) => <TextLike {...p} inputType="url" />;

export function TextareaWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder, options }: WidgetProps) {
  const s = useStyles();
  return (
    <Textarea id={id} name={id} className={s.full} value={blank(value) ? '' : String(value)} disabled={disabled} readOnly={readonly} placeholder={placeholder}
      rows={typeof options.rows === 'number' ? options.rows : 3} resize="vertical" aria-describedby={ariaDescribedByIds(id)}
      onChange={(_, d) => onChange(d.value === '' ? options.emptyValue : d.value)}
      onBlur={(e) => onBlur(id, e.target.value)} onFocus={(e) => onFocus(id, e.target.value)} />
  );
}

export function NumberWidget({ id, value, onChange, onBlur, onFocus, disabled, readonly, schema }: WidgetProps) {
  const s = useStyles();
  const integer = schema.type === 'integer';
  return (
    <SpinButton id={id} className={s.full} value={blank(value) ? null : Number(value)} disabled={disabled || readonly}
      min={typeof schema.minimum === 'number' ? schema.minimum : undefined} max={typeof schema.maximum === 'number' ? schema.maximum : undefined}
      aria-describedby={ariaDescribedByIds(id)}
      onChange={(_, d) => {
        const raw = d.value ?? (d.displayValue === undefined || d.displayValue === '' ? undefined : Number(d.displayValue));
        onChange(raw === undefined || Number.isNaN(raw) ? undefined : integer ? Math.trunc(raw) : raw);
      }}
      onBlur={() => onBlur(id, value)} onFocus={() => onFocus(id, value)} />
  );
}

/** The widget's choices: ui:options.options through the engine, else the schema enum. */
function useWidgetChoices(options: WidgetProps['options']): Choice[] {
  const source = typeof options.options === 'string' || Array.isArray(options.options) ? (options.options as string) : undefined;
  const fromSource = useChoicesHook()(source);
  if (source) return fromSource;
  return (options.enumOptions ?? []).map((o) => ({ value: o.value, label: String(o.label) }));
}

export function SelectWidget(props: WidgetProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const { id, value, onChange, onBlur, onFocus, disabled, readonly, placeholder, options, multiple, required } = props;
  const choices = useWidgetChoices(options);
  const values = (Array.isArray(value) ? value : [value]).filter((v) => !blank(v)).map(String);
  const text = values.map((v) => choiceOf(choices, v)?.label ?? v).join(', ');
  return (
    <Dropdown id={id} className={s.full} multiselect={multiple} value={text} selectedOptions={values} disabled={disabled || readonly}
      placeholder={placeholder || t('form.choose')} clearable={!required && !multiple} aria-describedby={ariaDescribedByIds(id)}
      onOptionSelect={(_, d) => {
        const pick = (v: string) => choiceOf(choices, v)?.value ?? v;
        if (multiple) onChange(d.selectedOptions.map(pick));
        else onChange(d.optionValue === undefined || !d.selectedOptions.length ? options.emptyValue : pick(d.optionValue));
      }}
      onBlur={() => onBlur(id, value)} onFocus={() => onFocus(id, value)}>
      {choices.map((c) => <Option key={String(c.value)} value={String(c.value)}>{c.label}</Option>)}
    </Dropdown>
  );
}

export const MultiSelectWidget = (p: WidgetProps) => <SelectWidget {...p} multiple />;

export function CheckboxWidget({ id, value, onChange, disabled, readonly, label, hideLabel }: WidgetProps) {
  return <Checkbox id={id} checked={!!value} disabled={disabled || readonly} label={hideLabel ? undefined : label} onChange={(_, d) => onChange(!!d.checked)} />;
}

/** A switch; for integer fields it writes 1/0 (the wire's status flags). */
export function SwitchWidget({ id, value, onChange, disabled, readonly, schema }: WidgetProps) {
  const numeric = schema.type === 'integer' || schema.type === 'number';
  return <Switch id={id} checked={numeric ? Number(value) === 1 : !!value} disabled={disabled || readonly} onChange={(_, d) => onChange(numeric ? (d.checked ? 1 : 0) : d.checked)} />;
}

/** date fields hold `YYYY-MM-DD`; the picker shows the same in both languages. */
export function DateWidget({ id, value, onChange, disabled, readonly, options, rawErrors }: WidgetProps) {
  return <DateTimeInput id={id} dateOnly value={parseDate(typeof value === 'string' ? value.slice(0, 10) : undefined)} disabled={disabled} readOnly={readonly}
    aria-describedby={ariaDescribedByIds(id)} aria-invalid={!!rawErrors?.length} onChange={(d) => onChange(d ? formatDate(d) : options.emptyValue)} />;
}

/** date-time fields hold ISO text in UTC (what `format: date-time` validates); the picker shows local `YYYY-MM-DD HH:mm:ss`. */
export function DateTimeWidget({ id, value, onChange, disabled, readonly, options, rawErrors }: WidgetProps) {
  return <DateTimeInput id={id} value={fromStored(value)} disabled={disabled} readOnly={readonly}
    aria-describedby={ariaDescribedByIds(id)} aria-invalid={!!rawErrors?.length} onChange={(d) => onChange(d ? toStored(d) : options.emptyValue)} />;
}

export const fluentWidgets: RegistryWidgetsType = {
  TextWidget, PasswordWidget, EmailWidget, URLWidget, TextareaWidget, SelectWidget, CheckboxWidget, DateWidget, DateTimeWidget,
  UpDownWidget: NumberWidget,
  multiselect: MultiSelectWidget,
  switch: SwitchWidget,
  number: NumberWidget,
  specimens: SpecimensWidget,
};
