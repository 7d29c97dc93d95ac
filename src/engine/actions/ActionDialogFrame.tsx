import { Button, Field, Spinner } from '@fluentui/react-components';
import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ResizableDialog } from '../../widgets/dialogs/ResizableDialog';
import { useThrottledConfirm } from '../../widgets/dialogs/useThrottledConfirm';

/**
 * Sending an action dialog's answer while the dialog stays open: one send at a time (a double click or a scanner's
 * second Enter sends once), closed on success, the server's message kept in the dialog on failure.
 * `prepare` runs first and may stop the send by returning false (fields missing, codes not ready).
 */
export function useDialogSend(send: () => Promise<void>, onDone: (done: boolean) => void, prepare: () => boolean = () => true) {
  const { t } = useTranslation();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const confirm = useThrottledConfirm(async () => {
    if (busy || !prepare()) return;
    setBusy(true);
    try {
      await send();
      onDone(true);
    } catch (e) {
      setError((e as { displayText?: string })?.displayText ?? t('request.failed', { status: '—' }));
    } finally {
      setBusy(false);
    }
  });
  return { busy, error, setError, confirm };
}

/** The frame of an action's dialog: title, body, the error of the last send, Cancel and a confirm button (busy while sending). */
export function ActionDialogFrame({ title, testId, width, busy, error, confirm, confirmLabel, confirmDisabled, onCancel, children }: {
  title: string; testId: string; width?: number; busy: boolean; error: string; confirm(): void; confirmLabel?: string; confirmDisabled?: boolean;
  onCancel(): void; children: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <ResizableDialog open onOpenChange={(o) => !o && !busy && onCancel()} title={title} testId={testId} width={width}
      actions={(
        <>
          <Button appearance="secondary" disabled={busy} onClick={onCancel}>{t('common.cancel')}</Button>
          <Button appearance="primary" disabled={busy || confirmDisabled} icon={busy ? <Spinner size="tiny" /> : undefined} onClick={confirm}
            data-testid={testId.replace(/-dialog$/, '-confirm')}>
            {confirmLabel ?? t('common.confirm')}
          </Button>
        </>
      )}>
      {children}
      {error && <Field validationMessage={error} validationState="error" />}
    </ResizableDialog>
  );
}
