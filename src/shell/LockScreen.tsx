import {
  Avatar, Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Field, Input, makeStyles, tokens,
} from '@fluentui/react-components';
import { LockClosed20Regular } from '@fluentui/react-icons';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { verifyLockScreen } from '../api/auth';
import { displayText } from '../api/client';
import { useSession } from '../store/session';

const useStyles = makeStyles({
  // Opaque: a locked screen must not show the patient data behind it.
  backdrop: { backgroundImage: `linear-gradient(135deg, ${tokens.colorBrandBackgroundPressed}, ${tokens.colorBrandBackground})` },
  who: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, marginBottom: tokens.spacingVerticalL },
  name: { fontSize: tokens.fontSizeBase400, fontWeight: tokens.fontWeightSemibold },
});

/** The lock-screen dialog (spec §2, §4, §5). It cannot be dismissed; only the password or logging out leaves it. */
export default function LockScreen({ onLogout }: { onLogout(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { user, unlock } = useSession();
  const [password, setPassword] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!password) return setError(t('lock.enterPassword'));
    setBusy(true);
    try {
      if (await verifyLockScreen(user?.name ?? '', password)) {
        setPassword('');
        setError('');
        unlock();
      } else {
        setError(t('lock.wrongPassword'));
      }
    } catch (err) {
      setError(displayText(err, t('lock.wrongPassword')));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Dialog open modalType="alert">
      <DialogSurface backdrop={{ className: s.backdrop }} data-testid="lock-screen">
        <form onSubmit={submit}>
          <DialogBody>
            <DialogTitle>{t('lock.title')}</DialogTitle>
            <DialogContent>
              <div className={s.who}>
                <Avatar name={user?.realname} size={48} color="colorful" />
                <div>
                  <div className={s.name}>{user?.realname}</div>
                  <div>{user?.name}</div>
                </div>
              </div>
              <Field label={t('lock.password')} validationMessage={error || undefined} validationState={error ? 'error' : 'none'}>
                <Input type="password" autoFocus value={password} onChange={(_, d) => { setPassword(d.value); setError(''); }}
                  contentBefore={<LockClosed20Regular />} name="lock-password" autoComplete="current-password" />
              </Field>
            </DialogContent>
            <DialogActions>
              <Button appearance="secondary" onClick={onLogout}>{t('user.logout')}</Button>
              <Button appearance="primary" type="submit" disabled={busy}>{t('lock.unlock')}</Button>
            </DialogActions>
          </DialogBody>
        </form>
      </DialogSurface>
    </Dialog>
  );
}
