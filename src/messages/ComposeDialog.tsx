import { Button, Checkbox, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Dropdown, Field, Input, Option, Textarea, makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { notify } from '../api/notify';
import { useChoices } from '../engine/options';
import { useSession } from '../store/session';
import { fetchRecipients, publishNotice, sendMessage, type Recipients } from './messagesApi';

const useStyles = makeStyles({ form: { display: 'flex', flexDirection: 'column', gap: tokens.spacingVerticalM } });

/** Writing a message to colleagues of the working hospital, or (`notice`) a notice to all of them or to roles. */
export function ComposeDialog({ mode, onClose, onSent }: { mode: 'message' | 'notice'; onClose(): void; onSent(): void }) {
  const { t, i18n } = useTranslation();
  const s = useStyles();
  const me = useSession((st) => st.user?.id);
  const [recipients, setRecipients] = useState<Recipients>({ users: [], roles: [] });
  const [chosen, setChosen] = useState<string[]>([]);
  const [title, setTitle] = useState('');
  const [content, setContent] = useState('');
  const [level, setLevel] = useState('0');
  const [type, setType] = useState('general');
  const types = useChoices('notice_type');
  const [clinical, setClinical] = useState(false);
  const [busy, setBusy] = useState(false);
  const [missing, setMissing] = useState(false);

  useEffect(() => { void fetchRecipients().then(setRecipients, () => undefined); }, []);

  const people = mode === 'message'
    ? recipients.users.filter((u) => u.id !== me).map((u) => ({ value: String(u.id), label: `${u.realname} (${u.name})` }))
    : recipients.roles.map((r) => ({ value: String(r.id), label: (i18n.language === 'en-US' && r.en_name) || r.name }));
  const labelOf = (v: string) => people.find((p) => p.value === v)?.label ?? v;
  const empty = !title.trim() && !content.trim();

  const submit = async () => {
    if ((mode === 'message' && !chosen.length) || empty) { setMissing(true); return; }
    setBusy(true);
    try {
      const body = { title, content, level: Number(level) };
      const { recipients: n } = mode === 'message'
        ? await sendMessage({ ...body, user_ids: chosen.map(Number), ...(clinical ? { clinical: true } : {}) })
        : await publishNotice({ ...body, type, ...(chosen.length ? { role_ids: chosen.map(Number) } : {}) });
      notify(t('messages.sent', { count: n }));
      onSent();
    } catch { /* the API client showed why */ } finally { setBusy(false); }
  };

  return (
    <Dialog open onOpenChange={(_, d) => { if (!d.open) onClose(); }}>
      <DialogSurface>
        <DialogBody>
          <DialogTitle>{t(mode === 'message' ? 'messages.compose' : 'messages.publishNotice')}</DialogTitle>
          <DialogContent className={s.form}>
            <Field label={t(mode === 'message' ? 'messages.to' : 'messages.toRoles')} required={mode === 'message'}
              hint={mode === 'notice' ? t('messages.toRolesHint') : undefined}
              validationMessage={missing && mode === 'message' && !chosen.length ? t('messages.chooseRecipient') : undefined}>
              <Dropdown multiselect selectedOptions={chosen} value={chosen.map(labelOf).join(', ')} placeholder={t('messages.choose')}
                onOptionSelect={(_, d) => setChosen(d.selectedOptions)} data-testid="message-recipients">
                {people.map((p) => <Option key={p.value} value={p.value}>{p.label}</Option>)}
              </Dropdown>
            </Field>
            <Field label={t('messages.title')} validationMessage={missing && empty ? t('messages.needText') : undefined}>
              <Input value={title} maxLength={200} onChange={(_, d) => setTitle(d.value)} data-testid="message-title" />
            </Field>
            <Field label={t('messages.content')}>
              <Textarea value={content} maxLength={4000} rows={5} resize="vertical" onChange={(_, d) => setContent(d.value)} data-testid="message-content" />
            </Field>
            <Field label={t('messages.level.label')}>
              <Dropdown selectedOptions={[level]} value={t(`messages.level.${level}`)} onOptionSelect={(_, d) => setLevel(d.optionValue ?? '0')}>
                {['0', '1', '2'].map((l) => <Option key={l} value={l}>{t(`messages.level.${l}`)}</Option>)}
              </Dropdown>
            </Field>
            {mode === 'notice' ? (
              <Field label={t('messages.type.label')}>
                <Dropdown selectedOptions={[type]} value={String(types.find((c) => c.value === type)?.label ?? type)}
                  onOptionSelect={(_, d) => setType(d.optionValue ?? 'general')} data-testid="notice-type">
                  {types.map((c) => <Option key={String(c.value)} value={String(c.value)}>{String(c.label)}</Option>)}
                </Dropdown>
              </Field>
            ) : null}
            {mode === 'message' ? (
              <Checkbox checked={clinical} onChange={(_, d) => setClinical(!!d.checked)} label={t('messages.clinical.ask')} data-testid="message-clinical" />
            ) : null}
          </DialogContent>
          <DialogActions>
            <Button appearance="secondary" onClick={onClose}>{t('common.cancel')}</Button>
            <Button appearance="primary" disabled={busy} onClick={() => void submit()} data-testid="message-send">{t('messages.send')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
