import { Button, Field, Textarea, Text, makeStyles, tokens } from '@fluentui/react-components';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { changeClinical, type Message } from './messagesApi';

const useStyles = makeStyles({
  box: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalS, marginTop: tokens.spacingVerticalM },
  buttons: { display: 'flex', gap: tokens.spacingHorizontalS },
});

type Answer = Pick<Message, 'clinical_status' | 'clinical_note' | 'clinical_at' | 'read_at'>;

/**
 * The clinical side's answer to a message that asks for one (messages/change-clinical): where it stands, a note, and
 * the next step (received, then handled). The server decides what may follow; its refusal is its toast.
 */
export function ClinicalAnswer({ message, onAnswered }: { message: Message; onAnswered(answer: Answer): void }) {
  const { t } = useTranslation();
  const s = useStyles();
  const [note, setNote] = useState(message.clinical_note ?? '');
  const [busy, setBusy] = useState(false);
  const status = message.clinical_status ?? null;
  const answer = async (next: 'received' | 'handled') => {
    setBusy(true);
    try {
      await changeClinical([message.id], next, note.trim() || undefined);
      const at = new Date().toISOString();
      onAnswered({ clinical_status: next, clinical_note: note.trim() || message.clinical_note || null, clinical_at: at, read_at: message.read_at ?? at });
    } catch { /* the API client showed why */ } finally { setBusy(false); }
  };
  return (
    <div className={s.box} data-testid="clinical-answer">
      <Text weight="semibold">{t('messages.clinical.asked')} · {t(`messages.clinical.status.${status ?? 'none'}`)}</Text>
      {status === 'handled' ? (
        message.clinical_note ? <Text>{message.clinical_note}</Text> : null
      ) : (
        <>
          <Field label={t('messages.clinical.note')}>
            <Textarea value={note} maxLength={1000} rows={3} resize="vertical" onChange={(_, d) => setNote(d.value)} data-testid="clinical-note" />
          </Field>
          <div className={s.buttons}>
            {status === null ? <Button disabled={busy} onClick={() => void answer('received')} data-testid="clinical-received">{t('messages.clinical.markReceived')}</Button> : null}
            <Button appearance="primary" disabled={busy} onClick={() => void answer('handled')} data-testid="clinical-handled">{t('messages.clinical.markHandled')}</Button>
          </div>
        </>
      )}
    </div>
  );
}
