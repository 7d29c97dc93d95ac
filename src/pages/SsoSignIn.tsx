import { Button, MessageBar, MessageBarBody, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchAuthCodeUrl, fetchSsoOptions, type SsoOption } from '../api/auth';
import { appPath } from '../core/appPath';

/** Why a single sign-on came back to the login page (the server's `sso_error`); other values are not shown as such. */
const FAILURES = ['not_configured', 'state', 'denied', 'rejected', 'unknown_user', 'not_allowed', 'unreachable'] as const;

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS },
  // A drawn rule rather than Fluent's Divider: the login page is in the first paint's budget (2.8 KB less).
  or: {
    display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, color: tokens.colorNeutralForeground3, fontSize: tokens.fontSizeBase200,
    '::before': { content: '""', flexGrow: 1, borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
    '::after': { content: '""', flexGrow: 1, borderTop: `1px solid ${tokens.colorNeutralStroke2}` },
  },
});

/**
 * The login page's single sign-on part: one "Sign in with …" button per hospital that has it switched on, and the
 * reason when a sign-in came back refused. The button is a plain link: the server sends the browser on to the
 * provider (state, nonce and PKCE stay on the server).
 */
export function SsoSignIn({ redirect, failure }: { redirect: string | null; failure: string | null }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const [options, setOptions] = useState<SsoOption[]>([]);

  useEffect(() => {
    let live = true;
    // Without it the page still offers the password login: nothing to tell the user.
    fetchSsoOptions().then((o) => live && setOptions(o)).catch(() => {});
    return () => { live = false; };
  }, []);

  const [imFailed, setImFailed] = useState(false);
  const known = FAILURES.find((f) => f === failure);
  const target = encodeURIComponent(appPath(redirect));
  // The messaging app's address carries a state made for this browser, so it is asked for at the click.
  const messagingSignIn = (hospitalId: number) => {
    setImFailed(false);
    fetchAuthCodeUrl(hospitalId, appPath(redirect)).then(({ url }) => {
      if (/^https?:\/\//.test(url)) window.location.assign(url);
    }, () => setImFailed(true));
  };
  return (
    <div className={s.box}>
      {imFailed ? (
        <MessageBar intent="error" data-testid="im-error"><MessageBarBody>{t('login.sso.errors.not_configured')}</MessageBarBody></MessageBar>
      ) : null}
      {failure ? (
        <MessageBar intent="error" data-testid="sso-error"><MessageBarBody>{t(`login.sso.errors.${known ?? 'rejected'}`)}</MessageBarBody></MessageBar>
      ) : null}
      {options.length ? <div className={s.or} role="separator">{t('login.sso.or')}</div> : null}
      {options.filter((o) => o.sso).map((o) => (
        <Button key={o.hospital_id} as="a" appearance="secondary" size="large" data-testid="sso-button"
          href={`/api/auth/sso/start?hospital=${o.hospital_id}&redirect=${target}`}>
          {t('login.sso.button', { label: o.label })}
        </Button>
      ))}
      {options.filter((o) => o.im_kind).map((o) => (
        <Button key={`im-${o.hospital_id}`} appearance="secondary" size="large" data-testid="im-button" onClick={() => messagingSignIn(o.hospital_id)}>
          {t('login.sso.imButton', { app: t(`login.sso.imKinds.${o.im_kind}`, { defaultValue: o.im_kind }), hospital: i18n.language === 'en-US' ? o.en_name || o.name : o.name })}
        </Button>
      ))}
    </div>
  );
}
