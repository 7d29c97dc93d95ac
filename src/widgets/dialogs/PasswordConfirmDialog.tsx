import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input } from '@fluentui/react-components';
import { LockClosed20Regular } from '@fluentui/react-icons';
import { useCallback, useState, type FormEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { DIALOG_WIDTH } from './ResizableDialog';
import { useThrottledConfirm } from './useThrottledConfirm';

export interface PasswordConfirmProps {
  open: boolean;
  title?: string;
  message?: ReactNode;
  /** Checks the password; resolves false when it is wrong. */
  verify(password: string): Promise<boolean>;
  onDone(confirmed: boolean): void;
}

/**
 * The password confirm box of spec §2/§5 ("confirm password before deletion"): the input is masked,
 * Enter confirms, an empty or wrong password keeps the box open with the lock screen's wording.
 */
export function PasswordConfirmDialog({ open, title, message, verify, onDone }: PasswordConfirmProps) {
  const { t } = useTranslation();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const finish = (ok: boolean) => {
    setPassword('');
    setError('');
    onDone(ok);
  };
  const confirm = useThrottledConfirm(async () => {
    if (!password) return setError(t('lock.enterPassword'));
    setBusy(true);
    try {
      if (await verify(password)) finish(true);
      else setError(t('lock.wrongPassword'));
    } catch {
      setError(t('lock.wrongPassword'));
    } finally {
      setBusy(false);
    }
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    confirm();
  };
  return (
    <Dialog open={open} modalType="alert" onOpenChange={(_, d) => !d.open && finish(false)}>
      <DialogSurface style={{ width: DIALOG_WIDTH }} data-testid="password-confirm">
        <form onSubmit={submit}>
          <DialogBody>
            <DialogTitle>{title ?? t('dialog.passwordConfirmTitle')}</DialogTitle>
            <DialogContent>
              {message ? <p>{message}</p> : null}
              <Field label={t('lock.password')} validationMessage={error || undefined} validationState={error ? 'error' : 'none'}>
                <Input type="password" autoFocus value={password} autoComplete="current-password" contentBefore={<LockClosed20Regular />}
                  onChange={(_, d) => { setPassword(d.value); setError(''); }} />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={() => finish(false)}>{t('common.cancel')}</Button>
              <Button appearance="primary" type="submit" disabled={busy}>{t('common.confirm')}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}

/** `const [box, ask] = usePasswordConfirm(verify); if (await ask({ message })) …` */
export function usePasswordConfirm(verify: (password: string) => Promise<boolean>): [ReactNode, (opts?: { title?: string; message?: ReactNode }) => Promise<boolean>] {
  const [state, setState] = useState<{ title?: string; message?: ReactNode; resolve(ok: boolean): void } | null>(null);
  const ask = useCallback((opts: { title?: string; message?: ReactNode } = {}) => new Promise<boolean>((resolve) => setState({ ...opts, resolve })), []);
  const box = (
    <PasswordConfirmDialog open={!!state} title={state?.title} message={state?.message} verify={verify}
      onDone={(ok) => { state?.resolve(ok); setState(null); }} />
  );
  return [box, ask];
}
