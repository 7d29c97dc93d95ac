import { Button, Field, Input, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { Key20Regular, LockClosed20Regular, Person20Regular, QrCode20Regular } from '@fluentui/react-icons';
import { Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router-dom';
import { login } from '../api/auth';
import { displayText } from '../api/client';
import { LOGIN_DEBOUNCE_MS, type Language } from '../core/constants';
import { chooseLanguage } from '../i18n';
import { useSession } from '../store/session';
import { LOCAL } from '../store/storageKeys';
import { useSettings } from '../store/settings';
import { passwordlessRoles } from '../core/securityKeys';
import { SsoSignIn } from './SsoSignIn';
import { lazyChunk } from '../shell/lazyChunk';

// The QR sign-in's code comes only when asked for: the login page is part of the first paint's budget.
const QrLoginPanel = lazyChunk(() => import('./qr-login/QrLoginPanel'));

const useStyles = makeStyles({
  root: { minHeight: '100vh', display: 'grid', gridTemplateColumns: 'minmax(0, 1.2fr) minmax(360px, 1fr)', backgroundColor: tokens.colorNeutralBackground2 },
  brand: {
    display: 'flex', flexDirection: 'column', justifyContent: 'center', padding: '64px', gap: tokens.spacingVerticalL,
    backgroundImage: `linear-gradient(135deg, ${tokens.colorBrandBackgroundPressed}, ${tokens.colorBrandBackground})`, color: tokens.colorNeutralForegroundOnBrand,
  },
  product: { fontSize: tokens.fontSizeHero900, fontWeight: tokens.fontWeightSemibold, lineHeight: tokens.lineHeightHero900 },
  tagline: { fontSize: tokens.fontSizeBase500, opacity: 0.9, maxWidth: '520px', lineHeight: tokens.lineHeightBase500 },
  side: { display: 'flex', alignItems: 'center', justifyContent: 'center', padding: tokens.spacingHorizontalXXL },
  // A box in Fluent Card's look, and language buttons with aria-pressed rather than ToggleButton: Card and
  // ToggleButton would add about 11 KB gzipped to what the login page and the shell download (tests/e2e/shell.test.ts).
  card: {
    width: '380px', padding: tokens.spacingHorizontalXXL, display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM, boxSizing: 'border-box',
    backgroundColor: tokens.colorNeutralBackground1, borderRadius: tokens.borderRadiusMedium, boxShadow: tokens.shadow4, color: tokens.colorNeutralForeground1,
  },
  chosen: { backgroundColor: tokens.colorSubtleBackgroundSelected, color: tokens.colorNeutralForeground2Selected },
  heading: { fontSize: tokens.fontSizeBase600, fontWeight: tokens.fontWeightSemibold, margin: 0 },
  langs: { display: 'flex', gap: tokens.spacingHorizontalS, justifyContent: 'flex-end' },
});

export default function LoginPage() {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const setToken = useSession((st) => st.setToken);
  const [username, setUsername] = useState(localStorage.getItem(LOCAL.username) ?? '');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<{ username?: string; password?: string }>({});
  const [failure, setFailure] = useState('');
  const [busy, setBusy] = useState(false);
  const [qr, setQr] = useState(false);
  const [keyBusy, setKeyBusy] = useState(false);
  // Offered once an administrator allowed some role to sign in with a key (public setting webauthn_login).
  const keysOffered = useSettings((st) => passwordlessRoles(st.settings.webauthn_login).length > 0);
  const timer = useRef<number>(undefined);

  useEffect(() => {
    document.title = `${t('login.title')} - ${t('app.titleSuffix')}`;
    return () => window.clearTimeout(timer.current);
  }, [t]);

  const attempt = async () => {
    setBusy(true);
    setFailure('');
    try {
      const res = await login(username.trim(), password);
      setToken(res.access_token, res.user_id);
      navigate(params.get('redirect') || '/manage', { replace: true });
    } catch (err) {
      setFailure(displayText(err, t('login.failed')));
      setBusy(false);
    }
  };

  // The WebAuthn code (@simplewebauthn/browser) is a chunk of its own, fetched on the press: the shell has no room for it.
  const signInWithKey = async () => {
    setKeyBusy(true);
    setFailure('');
    let ceremony: typeof import('./security-keys/ceremony');
    try {
      ceremony = await import('./security-keys/ceremony');
    } catch (err) {
      setFailure(displayText(err, t('login.failed')));
      setKeyBusy(false);
      return;
    }
    try {
      const res = await ceremony.signInWithSecurityKey();
      setToken(res.access_token, res.user_id);
      navigate(params.get('redirect') || '/manage', { replace: true });
    } catch (err) {
      setFailure(ceremony.ceremonyError(err));
      setKeyBusy(false);
    }
  };

  // Spec §5: login is debounced 200 ms, so a double click or Enter + click sends one request.
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const missing = { username: username.trim() ? undefined : t('login.usernameRequired'), password: password ? undefined : t('login.passwordRequired') };
    setErrors(missing);
    if (missing.username || missing.password) return;
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => void attempt(), LOGIN_DEBOUNCE_MS);
  };

  return (
    <div className={s.root}>
      <section className={s.brand}>
        <div className={s.product}>{t('app.name')}</div>
        <div className={s.tagline}>{t('login.tagline')}</div>
      </section>
      <section className={s.side}>
        <div className={s.card}>
          <div className={s.langs}>
            {(['zh-CN', 'en-US'] as Language[]).map((l) => (
              <Button key={l} size="small" appearance="subtle" aria-pressed={i18n.language === l} className={i18n.language === l ? s.chosen : undefined}
                onClick={() => i18n.language !== l && chooseLanguage(l)}>
                {t(`languageName.${l}`)}
              </Button>
            ))}
          </div>
          <h1 className={s.heading}>{t('login.title')}</h1>
          {qr ? (
            <Suspense fallback={null}>
              <QrLoginPanel onBack={() => setQr(false)} onSession={(token, userId) => {
                setToken(token, userId);
                navigate(params.get('redirect') || '/manage', { replace: true });
              }} />
            </Suspense>
          ) : null}
          <form onSubmit={submit} hidden={qr} style={{ display: qr ? 'none' : 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM }}>
            <Field label={t('login.username')} required validationMessage={errors.username}>
              <Input name="username" value={username} onChange={(_, d) => setUsername(d.value)} contentBefore={<Person20Regular />} autoComplete="username" autoFocus={!username} />
            </Field>
            <Field label={t('login.password')} required validationMessage={errors.password}>
              <Input name="password" type="password" value={password} onChange={(_, d) => setPassword(d.value)} contentBefore={<LockClosed20Regular />} autoComplete="current-password" autoFocus={!!username} />
            </Field>
            {failure ? <MessageBar intent="error" data-testid="login-error"><MessageBarBody>{failure}</MessageBarBody></MessageBar> : null}
            <Button appearance="primary" type="submit" size="large" disabled={busy}>{busy ? t('login.signingIn') : t('login.submit')}</Button>
          </form>
          <SsoSignIn redirect={params.get('redirect')} failure={params.get('sso_error')} />
          {!qr && keysOffered ? (
            <Button appearance="subtle" icon={<Key20Regular />} onClick={() => void signInWithKey()} disabled={keyBusy} data-testid="security-key-login">
              {keyBusy ? t('login.securityKeyWaiting') : t('login.securityKey')}
            </Button>
          ) : null}
          {qr ? null : <Button appearance="subtle" icon={<QrCode20Regular />} onClick={() => setQr(true)} data-testid="qr-login-open">{t('login.qr')}</Button>}
        </div>
      </section>
    </div>
  );
}
