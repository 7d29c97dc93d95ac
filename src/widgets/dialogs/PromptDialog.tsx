import { Button, Dropdown, Field, Option, Spinner } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SelectInput } from '../SelectInput';
import { ResizableDialog } from './ResizableDialog';
import { useThrottledConfirm } from './useThrottledConfirm';

export interface PromptDialogProps {
  open: boolean;
  title: string;
  label?: string;
  options: { value: string; label: string }[];
  /** Spec §5: a required prompt rejects an empty choice with the caller's message. */
  required?: boolean;
  requiredMessage?: string;
  /** Several of the options may be chosen (no free text); the answer is their values. */
  multiple?: boolean;
  /** One value, or with `multiple` the values chosen at the start. */
  initialValue?: string | readonly string[];
  /**
   * Called with the trimmed value (with `multiple`, the chosen values). When it returns a promise the dialog waits;
   * a rejection keeps it open with the error's `displayText` (the server's translated message) under the field, so
   * the user can correct the value instead of starting over.
   */
  onConfirm(value: string | string[]): void | Promise<void>;
  onCancel(): void;
}

const listOf = (v: string | readonly string[] | undefined): string[] => (v === undefined ? [] : typeof v === 'string' ? (v ? [v] : []) : [...v]);

/**
 * The select-or-input prompt of spec §2: choose an option or type a value (e.g. a return reason, a pathology number);
 * with `multiple`, choose several options (a slide's unqualified reasons).
 */
export function PromptDialog({ open, title, label, options, required, requiredMessage, multiple, initialValue, onConfirm, onCancel }: PromptDialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(typeof initialValue === 'string' ? initialValue : '');
  const [values, setValues] = useState(() => listOf(initialValue));
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const confirm = useThrottledConfirm(async () => {
    if (busy) return;
    const answer = multiple ? values : value.trim();
    if (required && !answer.length) return setError(requiredMessage ?? t('dialog.required'));
    setBusy(true);
    try {
      await onConfirm(answer);
      setValue('');
      setValues([]);
    } catch (e) {
      setError((e as { displayText?: string })?.displayText ?? t('request.failed', { status: '—' }));
    } finally {
      setBusy(false);
    }
  });
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  return (
    <ResizableDialog open={open} onOpenChange={(o) => !o && !busy && onCancel()} title={title} testId="prompt-dialog"
      actions={(
        <>
          <Button appearance="secondary" disabled={busy} onClick={onCancel}>{t('common.cancel')}</Button>
          <Button appearance="primary" disabled={busy} icon={busy ? <Spinner size="tiny" /> : undefined} onClick={confirm} data-testid="prompt-confirm">
            {t('common.confirm')}
          </Button>
        </>
      )}>
      <Field label={label} required={required} validationMessage={error || undefined} validationState={error ? 'error' : 'none'}>
        {multiple
          ? (
            <Dropdown multiselect value={values.map(labelOf).join(', ')} selectedOptions={values} placeholder={t('dialog.select')} data-testid="prompt-input"
              onOptionSelect={(_e, d) => { setValues(d.selectedOptions); setError(''); }}>
              {/* A chosen value the options lack (a default from the row) stays choosable, so it can be taken off. */}
              {[...options, ...values.filter((v) => !options.some((o) => o.value === v)).map((v) => ({ value: v, label: v }))]
                .map((o) => <Option key={o.value} value={o.value}>{o.label}</Option>)}
            </Dropdown>
          )
          : (
            <SelectInput value={value} options={options} placeholder={t('dialog.selectOrInput')} data-testid="prompt-input"
              onValueChange={(v) => { setValue(v); setError(''); }} />
          )}
      </Field>
    </ResizableDialog>
  );
}
