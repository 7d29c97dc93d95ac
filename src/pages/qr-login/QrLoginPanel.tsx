import { Button, MessageBar, MessageBarBody, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { displayText } from '../../api/client';
import { checkQrCode, newQrCode, type QrCode } from './qrApi';
import './words';

/** The waiting page asks this often; the code lives two minutes (server/modules/qr-login). */
const POLL_MS = 1500;

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalM, textAlign: 'center' },
  qr: { width: '220px', height: '220px', border: `1px solid ${tokens.colorNeutralStroke2}`, borderRadius: tokens.borderRadiusMedium, backgroundColor: 'white' },
});

type State = { kind: 'loading' } | { kind: 'showing'; code: QrCode; until: number } | { kind: 'approved' } | { kind: 'ended'; text: string };

/**
 * The login page's QR sign-in (spec §4): a code to scan with a signed-in phone; this page polls until the phone
 * approves, then holds the approving user's session. An expired, declined or used code offers a new one.
 */
export default function QrLoginPanel({ onSession, onBack }: { onSession(token: string, userId: number): void; onBack(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [state, setState] = useState<State>({ kind: 'loading' });
  const [now, setNow] = useState(Date.now());

  const fresh = useCallback(() => {
    setState({ kind: 'loading' });
    newQrCode()
      .then((code) => {
        setNow(Date.now());
        setState({ kind: 'showing', code, until: Date.now() + code.expires_in * 1000 });
      })
      .catch((e: unknown) => setState({ kind: 'ended', text: displayText(e, t('qrLogin.expired')) }));
  }, [t]);
  useEffect(fresh, [fresh]);

  const code = state.kind === 'showing' ? state.code : null;
  useEffect(() => {
    if (!code) return;
    let live = true;
    const timer = window.setInterval(() => {
      setNow(Date.now());
      checkQrCode(code).then((res) => {
        if (!live || res.status !== 'approved') return;
        live = false;
        setState({ kind: 'approved' });
        onSession(res.access_token, res.user_id);
      }).catch((e: unknown) => {
        if (live) setState({ kind: 'ended', text: displayText(e, t('qrLogin.expired')) });
        live = false;
      });
    }, POLL_MS);
    return () => { live = false; window.clearInterval(timer); };
  }, [code, onSession, t]);

  const seconds = state.kind === 'showing' ? Math.max(0, Math.ceil((state.until - now) / 1000)) : 0;
  return (
    <div className={s.box} data-testid="qr-login">
      <Text weight="semibold">{t('qrLogin.title')}</Text>
      {state.kind === 'loading' ? <Spinner /> : null}
      {state.kind === 'showing' ? (
        <>
          <img className={s.qr} src={state.code.qr} alt={t('qrLogin.imageAlt')} data-testid="qr-image" data-code={state.code.id} />
          <Text>{t('qrLogin.scan')}</Text>
          <Text size={200}>{t('qrLogin.expiresIn', { seconds })}</Text>
        </>
      ) : null}
      {state.kind === 'approved' ? <MessageBar intent="success"><MessageBarBody>{t('qrLogin.approved')}</MessageBarBody></MessageBar> : null}
      {state.kind === 'ended' ? (
        <>
          <MessageBar intent="warning" data-testid="qr-ended"><MessageBarBody>{state.text}</MessageBarBody></MessageBar>
          <Button appearance="primary" onClick={fresh} data-testid="qr-refresh">{t('qrLogin.refresh')}</Button>
        </>
      ) : null}
      <Button appearance="subtle" onClick={onBack}>{t('qrLogin.back')}</Button>
    </div>
  );
}
