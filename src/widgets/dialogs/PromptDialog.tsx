import { Button, Field, Spinner } from '@fluentui/react-components';
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
  initialValue?: string;
  /**
   * Called with the trimmed value. When it returns a promise the dialog waits; a rejection keeps it
   * open with the error's `displayText` (the server's translated message) under the field, so the
   * user can correct the value instead of starting over.
   */
  onConfirm(value: string): void | Promise<void>;
  onCancel(): void;
}

/** The select-or-input prompt of spec §2: choose an option or type a value (e.g. a return reason, a pathology number). */
export function PromptDialog({ open, title, label, options, required, requiredMessage, initialValue = '', onConfirm, onCancel }: PromptDialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const confirm = useThrottledConfirm(async () => {
    if (busy) return;
    if (required && !value.trim()) return setError(requiredMessage ?? t('dialog.required'));
    setBusy(true);
    try {
      await onConfirm(value.trim());
      setValue('');
    } catch (e) {
      setError((e as { displayText?: string })?.displayText ?? t('request.failed', { status: '—' }));
    } finally {
      setBusy(false);
    }
  });
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
        <SelectInput value={value} options={options} placeholder={t('dialog.selectOrInput')} data-testid="prompt-input"
          onValueChange={(v) => { setValue(v); setError(''); }} />
      </Field>
    </ResizableDialog>
  );
}
