import { Button, Field, Input, Spinner } from '@fluentui/react-components';
import { useCallback, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { missingFields } from '../../core/actionRequest';
import type { ActionSchema, PromptSchema } from '../../core/pageSchema';
import { ResizableDialog } from '../../widgets/dialogs/ResizableDialog';
import { useThrottledConfirm } from '../../widgets/dialogs/useThrottledConfirm';
import { SelectInput } from '../../widgets/SelectInput';
import { useLabel } from '../../widgets/useLabel';
import { useChoices } from '../options';

interface Fill {
  action: ActionSchema;
  submit(values: Record<string, string>): Promise<void>;
  resolve(done: boolean): void;
}

const testId = (field: string) => `form-field-${field.replace(/\./g, '-')}`;

/** One field of the dialog: a select-or-type box when it has options, else a text or number box. */
function FormField({ field, value, error, onChange }: { field: PromptSchema; value: string; error?: string; onChange(v: string): void }) {
  const { label } = useLabel();
  const { t } = useTranslation();
  const choices = useChoices(field.options, true);
  const options = useMemo(() => [...new Map(choices.map((c) => [String(c.value), { value: String(c.value), label: c.label }])).values()], [choices]);
  return (
    <Field label={label(field.label ?? field.field)} required={field.required} validationMessage={error} validationState={error ? 'error' : 'none'}>
      {field.options
        ? <SelectInput value={value} options={options} placeholder={t('dialog.selectOrInput')} data-testid={testId(field.field)} onValueChange={onChange} />
        : <Input value={value} type={field.type === 'integer' ? 'number' : 'text'} data-testid={testId(field.field)} onChange={(_e, d) => onChange(d.value)} />}
    </Field>
  );
}

/** The dialog of a `form` action: its fields, confirm sends them; a failure stays in the dialog with the server's message. */
function FormHost({ fill, onDone }: { fill: Fill; onDone(done: boolean): void }) {
  const { t } = useTranslation();
  const { label } = useLabel();
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const confirm = useThrottledConfirm(async () => {
    if (busy) return;
    const empty = missingFields(fill.action, values);
    setMissing(empty);
    if (empty.length) return;
    setBusy(true);
    try {
      await fill.submit(values);
      onDone(true);
    } catch (e) {
      setError((e as { displayText?: string })?.displayText ?? t('request.failed', { status: '—' }));
    } finally {
      setBusy(false);
    }
  });
  return (
    <ResizableDialog open onOpenChange={(o) => !o && !busy && onDone(false)} title={label(fill.action.label)} testId="form-dialog"
      actions={(
        <>
          <Button appearance="secondary" disabled={busy} onClick={() => onDone(false)}>{t('common.cancel')}</Button>
          <Button appearance="primary" disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined} onClick={confirm} data-testid="form-confirm">
            {t('common.confirm')}
          </Button>
        </>
      )}>
      {/* Enter in a text box confirms: a barcode scanner types the number and presses Enter. */}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 12 }}
        onKeyDown={(e) => { if (e.key === 'Enter' && (e.target as HTMLElement).tagName === 'INPUT' && (e.target as HTMLElement).getAttribute('role') !== 'combobox' && !e.nativeEvent.isComposing) { e.preventDefault(); confirm(); } }}>
        {(fill.action.fields ?? []).map((f) => (
          <FormField key={f.field} field={f} value={values[f.field] ?? ''} error={missing.includes(f.field) ? t('dialog.required') : undefined}
            onChange={(v) => { setValues((s) => ({ ...s, [f.field]: v })); setMissing((m) => m.filter((x) => x !== f.field)); setError(''); }} />
        ))}
      </div>
      {error && <Field validationMessage={error} validationState="error" />}
    </ResizableDialog>
  );
}

/**
 * `const [dialog, fill] = useActionForm(); if (await fill(action, send)) …`: shows the form action's fields
 * and calls `send` with the answers while the dialog stays open. True once `send` succeeded, false when cancelled.
 */
export function useActionForm(): [ReactNode, (action: ActionSchema, submit: Fill['submit']) => Promise<boolean>] {
  const [fill, setFill] = useState<Fill | null>(null);
  const open = useCallback((action: ActionSchema, submit: Fill['submit']) =>
    new Promise<boolean>((resolve) => setFill({ action, submit, resolve })), []);
  const done = (ok: boolean) => {
    fill?.resolve(ok);
    setFill(null);
  };
  return [fill ? <FormHost fill={fill} onDone={done} /> : null, open];
}
