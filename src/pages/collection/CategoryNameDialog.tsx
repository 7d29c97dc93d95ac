import { Button, Field, Input } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../api/client';
import { ResizableDialog } from '../../widgets/dialogs/ResizableDialog';
import { useThrottledConfirm } from '../../widgets/dialogs/useThrottledConfirm';

/** The server's limit (server/modules/collections/rules.ts), checked here first so the user need not wait. */
export const CATEGORY_NAME_MAX = 64;

export interface CategoryNameDialogProps {
  title: string;
  initialName?: string;
  /** Saves the name; a refusal (a duplicate) is shown on the field and the dialog stays open. */
  onSave(name: string): Promise<unknown>;
  onClose(): void;
}

/** Name a new collection category or rename one. Render it only while open: each opening starts afresh. */
export function CategoryNameDialog({ title, initialName = '', onSave, onClose }: CategoryNameDialogProps) {
  const { t } = useTranslation();
  const [name, setName] = useState(initialName);
  const [error, setError] = useState('');
  const [saving, setSaving] = useState(false);

  const save = useThrottledConfirm(async () => {
    const trimmed = name.trim();
    if (!trimmed) return setError(t('collection.nameRequired'));
    if ([...trimmed].length > CATEGORY_NAME_MAX) return setError(t('collection.nameTooLong', { max: CATEGORY_NAME_MAX }));
    setSaving(true);
    try {
      await onSave(trimmed);
      onClose();
    } catch (e) {
      const fields = (e as { response?: { data?: { errors?: Record<string, string[]> } } }).response?.data?.errors;
      setError(fields?.name?.[0] ?? displayText(e, t('collection.saveFailed')));
    } finally {
      setSaving(false);
    }
  });

  return (
    <ResizableDialog open onOpenChange={(o) => !o && onClose()} title={title} testId="category-dialog"
      actions={(
        <>
          <Button appearance="secondary" onClick={onClose}>{t('common.cancel')}</Button>
          <Button appearance="primary" disabled={saving} onClick={save} data-testid="category-save">{t('common.confirm')}</Button>
        </>
      )}>
      <Field label={t('collection.nameLabel')} required validationMessage={error || undefined} validationState={error ? 'error' : 'none'}>
        <Input value={name} autoFocus maxLength={CATEGORY_NAME_MAX * 2} data-testid="category-name"
          onChange={(_, d) => { setName(d.value); setError(''); }}
          onKeyDown={(e) => { if (e.key === 'Enter') save(); }} />
      </Field>
    </ResizableDialog>
  );
}
