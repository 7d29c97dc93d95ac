import { Button, Field, Input, Spinner, Textarea } from '@fluentui/react-components';
import { Search20Regular } from '@fluentui/react-icons';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { lookupFill, missingFields } from '../../core/actionRequest';
import type { ActionSchema, PromptSchema } from '../../core/pageSchema';
import { SelectInput } from '../../widgets/SelectInput';
import { useLabel } from '../../widgets/useLabel';
import { useSelectOptions } from '../options';
import { useDataProvider } from '../dataContext';
import { ActionDialogFrame, useDialogSend } from './ActionDialogFrame';
import { useAsking } from './useAsking';

interface Fill {
  action: ActionSchema;
  submit(values: Record<string, string>): Promise<void>;
}

const testId = (field: string) => `form-field-${field.replace(/\./g, '-')}`;

/** What a looked-up field says under itself: busy, what it filled, or why it filled nothing. */
type LookupState = { busy: boolean; note?: string; failed?: boolean };

/**
 * One field of the dialog: a select-or-type box when it has options, else a text or number box; a field with
 * `lookup` has a look-up button (Enter in it looks up too: a scanner types the number and presses Enter).
 */
function FormField({ field, value, error, lookup, onChange, onLookup }: {
  field: PromptSchema; value: string; error?: string; lookup?: LookupState; onChange(v: string): void; onLookup?(): void;
}) {
  const { label } = useLabel();
  const { t } = useTranslation();
  const options = useSelectOptions(field.options);
  const message = error ?? lookup?.note;
  const state = error || lookup?.failed ? 'error' : lookup?.note ? 'success' : 'none';
  const button = onLookup ? (
    <Button appearance="transparent" size="small" aria-label={t('dialog.lookup')} title={t('dialog.lookup')} disabled={lookup?.busy || !value.trim()}
      icon={lookup?.busy ? <Spinner size="extra-tiny" /> : <Search20Regular />} onClick={onLookup} data-testid={`${testId(field.field)}-lookup`} />
  ) : undefined;
  return (
    <Field label={label(field.label ?? field.field)} required={field.required} validationMessage={message} validationState={state}
      style={field.multiline ? { gridColumn: '1 / -1' } : undefined}>
      {field.options
        ? <SelectInput value={value} options={options} placeholder={t('dialog.selectOrInput')} data-testid={testId(field.field)} onValueChange={onChange} />
        : field.multiline ? <Textarea value={value} rows={3} resize="vertical" data-testid={testId(field.field)} onChange={(_e, d) => onChange(d.value)} />
        : <Input value={value} type={field.type === 'integer' ? 'number' : 'text'} data-testid={testId(field.field)} data-lookup={onLookup ? 'true' : undefined}
          contentAfter={button} onChange={(_e, d) => onChange(d.value)} />}
    </Field>
  );
}

/** The dialog of a `form` action: its fields, confirm sends them; a failure stays in the dialog with the server's message. */
function FormHost({ fill, onDone }: { fill: Fill; onDone(done: boolean): void }) {
  const { t } = useTranslation();
  const { label } = useLabel();
  const [values, setValues] = useState<Record<string, string>>({});
  const [missing, setMissing] = useState<string[]>([]);
  const [lookups, setLookups] = useState<Record<string, LookupState>>({});
  const dp = useDataProvider();
  /** Asks the field's lookup for its value and fills what the answer holds; a refusal stays under the field. */
  const lookUp = async (f: PromptSchema) => {
    const value = (values[f.field] ?? '').trim();
    if (!f.lookup || !value) return;
    setLookups((l) => ({ ...l, [f.field]: { busy: true } }));
    try {
      const answer = await dp.custom<unknown>({ method: 'GET', url: f.lookup.url, params: { [f.lookup.param ?? f.field]: value }, options: { silent: true, allowMultiple: true } });
      const filled = lookupFill(fill.action, f.field, answer);
      setValues((v) => ({ ...v, ...filled }));
      setMissing((m) => m.filter((x) => !(x in filled)));
      setLookups((l) => ({ ...l, [f.field]: { busy: false, note: t('dialog.lookupFilled', { count: Object.keys(filled).length }) } }));
    } catch (e) {
      setLookups((l) => ({ ...l, [f.field]: { busy: false, failed: true, note: (e as { displayText?: string })?.displayText ?? t('request.failed', { status: '—' }) } }));
    }
  };
  const { busy, error, setError, confirm } = useDialogSend(() => fill.submit(values), onDone, () => {
    const empty = missingFields(fill.action, values);
    setMissing(empty);
    return !empty.length;
  });
  return (
    <ActionDialogFrame title={label(fill.action.label)} testId="form-dialog" busy={busy} error={error} confirm={confirm} onCancel={() => onDone(false)}>
      {/* Enter in a text box confirms: a barcode scanner types the number and presses Enter. */}
      <div style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(220px, 1fr))', gap: 12 }}
        onKeyDown={(e) => {
          const target = e.target as HTMLElement;
          if (e.key !== 'Enter' || target.tagName !== 'INPUT' || target.getAttribute('role') === 'combobox' || e.nativeEvent.isComposing) return;
          e.preventDefault();
          // Enter in a looked-up field looks up; anywhere else it confirms.
          const looked = target.getAttribute('data-lookup') === 'true' ? (fill.action.fields ?? []).find((f) => target.getAttribute('data-testid') === testId(f.field)) : undefined;
          if (looked) void lookUp(looked);
          else confirm();
        }}>
        {(fill.action.fields ?? []).map((f) => (
          <FormField key={f.field} field={f} value={values[f.field] ?? ''} error={missing.includes(f.field) ? t('dialog.required') : undefined}
            lookup={lookups[f.field]} onLookup={f.lookup ? () => void lookUp(f) : undefined}
            onChange={(v) => {
              setValues((s) => ({ ...s, [f.field]: v })); setMissing((m) => m.filter((x) => x !== f.field)); setError('');
              if (lookups[f.field]) setLookups((l) => ({ ...l, [f.field]: { busy: false } }));
            }} />
        ))}
      </div>
    </ActionDialogFrame>
  );
}

/**
 * `const [dialog, fill] = useActionForm(); if (await fill(action, send)) …`: shows the form action's fields
 * and calls `send` with the answers while the dialog stays open. True once `send` succeeded, false when cancelled.
 */
export function useActionForm(): [ReactNode, (action: ActionSchema, submit: Fill['submit']) => Promise<boolean>] {
  const [dialog, ask] = useAsking<Fill>((fill, done) => <FormHost fill={fill} onDone={done} />);
  return [dialog, (action, submit) => ask({ action, submit })];
}
