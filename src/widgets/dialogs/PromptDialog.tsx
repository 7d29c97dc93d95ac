import { Button, Field } from '@fluentui/react-components';
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
  onConfirm(value: string): void;
  onCancel(): void;
}

/** The select-or-input prompt of spec §2: choose an option or type a value (e.g. a return reason). */
export function PromptDialog({ open, title, label, options, required, requiredMessage, initialValue = '', onConfirm, onCancel }: PromptDialogProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState(initialValue);
  const [error, setError] = useState('');
  const confirm = useThrottledConfirm(() => {
    if (required && !value.trim()) return setError(requiredMessage ?? t('dialog.required'));
    onConfirm(value.trim());
    setValue('');
  });
  return (
    <ResizableDialog open={open} onOpenChange={(o) => !o && onCancel()} title={title} testId="prompt-dialog"
      actions={(
        <>
          <Button appearance="secondary" onClick={onCancel}>{t('common.cancel')}</Button>
          <Button appearance="primary" onClick={confirm}>{t('common.confirm')}</Button>
        </>
      )}>
      <Field label={label} required={required} validationMessage={error || undefined} validationState={error ? 'error' : 'none'}>
        <SelectInput value={value} options={options} placeholder={t('dialog.selectOrInput')}
          onValueChange={(v) => { setValue(v); setError(''); }} />
      </Field>
    </ResizableDialog>
  );
}
