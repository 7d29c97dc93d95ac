import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input } from '@fluentui/react-components';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { switchAccount } from '../api/auth';
import { displayText } from '../api/client';
import { useSession } from '../store/session';

/**
 * Change account (spec §2, §5): needs username and password; on success the server ends the old session
 * (users/switch) and the new one replaces it here. A refusal leaves the old session signed in.
 */
export default function ChangeAccountDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t } = useTranslation();
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string; password?: string; form?: string }>({});
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const missing = { username: username ? undefined : t('login.usernameRequired'), password: password ? undefined : t('login.passwordRequired') };
    if (missing.username || missing.password) return setErrors(missing);
    setBusy(true);
    try {
      const res = await switchAccount(username, password);
      const session = useSession.getState();
      session.clear();
      session.setToken(res.access_token, res.user_id);
      window.location.assign('/manage');
    } catch (err) {
      setErrors({ form: displayText(err, t('login.failed')) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open={open} onOpenChange={(_, d) => !d.open && onClose()}>
      <DialogSurface style={{ width: 400 }}>
        <form onSubmit={submit}>
          <DialogBody>
            <DialogTitle>{t('user.changeAccount')}</DialogTitle>
            <DialogContent>
              <Field label={t('login.username')} required validationMessage={errors.username}>
                <Input value={username} onChange={(_, d) => setUsername(d.value)} autoComplete="username" />
              </Field>
              <Field label={t('login.password')} required validationMessage={errors.password ?? errors.form}>
                <Input type="password" value={password} onChange={(_, d) => setPassword(d.value)} autoComplete="current-password" />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button onClick={onClose}>{t('common.cancel')}</Button>
              <Button appearance="primary" type="submit" disabled={busy}>{t('common.confirm')}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
