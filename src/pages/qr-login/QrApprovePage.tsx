import { Button, Card, MessageBar, MessageBarBody, Spinner, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { displayText } from '../../api/client';
import { useSession } from '../../store/session';
import { answerQr, qrRequest, type QrRequest } from './qrApi';
import './words';

const useStyles = makeStyles({
  root: { minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', padding: tokens.spacingHorizontalL, backgroundColor: tokens.colorNeutralBackground2 },
  card: { maxWidth: '420px', width: '100%', display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalM },
});

type State = { kind: 'loading' } | { kind: 'asking'; request: QrRequest } | { kind: 'done'; intent: 'success' | 'warning' | 'error'; text: string };

/**
 * `/h5/qr-login?c=<code>`, opened on a signed-in phone from the login page's QR code (the route guard sends a phone
 * without a session to sign in first): says what asks, and approves or declines it.
 */
export default function QrApprovePage() {
  const s = useStyles();
  const { t } = useTranslation();
  const id = useSearchParams()[0].get('c') ?? '';
  const me = useSession((st) => st.user?.realname ?? st.user?.name ?? '');
  const [state, setState] = useState<State>(id ? { kind: 'loading' } : { kind: 'done', intent: 'error', text: t('qrLogin.noCode') });
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    if (!id) return;
    qrRequest(id).then((request) => setState({ kind: 'asking', request }))
      .catch((e: unknown) => setState({ kind: 'done', intent: 'error', text: displayText(e, t('qrLogin.expired')) }));
  }, [id, t]);

  const answer = async (approve: boolean) => {
    setBusy(true);
    try {
      await answerQr(id, approve);
      setState({ kind: 'done', intent: approve ? 'success' : 'warning', text: t(approve ? 'qrLogin.doneApproved' : 'qrLogin.doneDeclined') });
    } catch (e) {
      setState({ kind: 'done', intent: 'error', text: displayText(e, t('qrLogin.expired')) });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={s.root}>
      <Card className={s.card} data-testid="qr-approve">
        <Text size={500} weight="semibold">{t('qrLogin.approveTitle')}</Text>
        {state.kind === 'loading' ? <Spinner /> : null}
        {state.kind === 'asking' ? (
          <>
            <Text>{t('qrLogin.approveText', { name: me })}</Text>
            <Text size={200}>{t('qrLogin.requestedFrom', { ip: state.request.ip ?? '—', time: new Date(state.request.created_at).toLocaleTimeString() })}</Text>
            <div className={s.buttons}>
              <Button appearance="primary" disabled={busy} onClick={() => void answer(true)} data-testid="qr-approve-yes">{t('qrLogin.approve')}</Button>
              <Button disabled={busy} onClick={() => void answer(false)} data-testid="qr-approve-no">{t('qrLogin.decline')}</Button>
            </div>
          </>
        ) : null}
        {state.kind === 'done' ? <MessageBar intent={state.intent} data-testid="qr-approve-result"><MessageBarBody>{state.text}</MessageBarBody></MessageBar> : null}
      </Card>
    </div>
  );
}
