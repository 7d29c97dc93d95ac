import { Button, Checkbox, Combobox, Field, Input, Link, makeStyles, Option, SpinButton, Text, tokens } from '@fluentui/react-components';
import { useCallback, useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isGranted } from '../core/actions';
import { DEFAULT_SHARE_SECONDS, MAX_SHARE_SECONDS, SHARE_FLAG_PERMISSION, type SharePermissions } from '../core/sharePermissions';
import { useGrants } from '../engine/useGrants';
import { useSession } from '../store/session';
import { createShare, myShares, revokeShare, shareRecipients, type CreatedShare, type MyShare, type ShareRecipient } from './shareApi';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', gap: '8px', padding: '8px 0' },
  item: { display: 'flex', alignItems: 'center', gap: '8px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, padding: '4px 0' },
  grow: { flex: 1, minWidth: 0 },
  meeting: { marginTop: '12px' },
});

/** The viewer's share tab: make a link for this slide (expiry, what it shows) and see or revoke my links to it. */
export function SharePanel({ slideId }: { slideId: number }) {
  const s = useStyles();
  const { t, i18n } = useTranslation();
  const navigate = useNavigate();
  const grants = useGrants();
  const [hours, setHours] = useState(DEFAULT_SHARE_SECONDS / 3600);
  const [perms, setPerms] = useState<Pick<SharePermissions, 'diagnosis' | 'annotation' | 'need_login'>>({ diagnosis: false, annotation: false, need_login: false });
  const [created, setCreated] = useState<CreatedShare | null>(null);
  const [list, setList] = useState<MyShare[]>([]);
  // Optionally sent to a colleague of the slide's hospital, who gets a message with the link.
  const me = useSession((st) => st.user?.id);
  const [people, setPeople] = useState<ShareRecipient[]>([]);
  const [recipient, setRecipient] = useState<ShareRecipient | null>(null);
  useEffect(() => { void shareRecipients(slideId).then(setPeople, () => undefined); }, [slideId]);
  const reload = useCallback(() => { void myShares().then((all) => setList(all.filter((x) => x.slide_id === slideId))); }, [slideId]);
  useEffect(reload, [reload]);

  const make = async () => {
    setCreated(await createShare(slideId, Math.round(hours * 3600), perms, recipient?.id));
    reload();
  };
  const when = (iso: string) => new Date(iso).toLocaleString(i18n.language);
  // A flag the user's own permissions do not show is not offered: the server would refuse the link (403).
  const flag = (key: keyof typeof perms) => (key !== 'need_login' && !isGranted(SHARE_FLAG_PERMISSION[key], grants) ? null : (
    <Checkbox label={t(`share.permission.${key}`)} checked={perms[key]} data-testid={`share-${key}`} onChange={(_, d) => setPerms((p) => ({ ...p, [key]: d.checked === true }))} />
  ));

  return (
    <div className={s.root} data-testid="share-panel">
      <Field label={t('share.hours')}>
        <SpinButton value={hours} min={1} max={MAX_SHARE_SECONDS / 3600} data-testid="share-hours" onChange={(_, d) => setHours(Number(d.value ?? d.displayValue) || hours)} />
      </Field>
      {flag('diagnosis')}
      {flag('annotation')}
      {flag('need_login')}
      <Field label={t('share.recipient')} hint={t('share.recipientHint')}>
        <Combobox clearable placeholder={t('share.recipientNone')} value={recipient ? `${recipient.realname} (${recipient.name})` : undefined}
          selectedOptions={recipient ? [String(recipient.id)] : []} data-testid="share-recipient"
          onOptionSelect={(_, d) => setRecipient(people.find((p) => String(p.id) === d.optionValue) ?? null)}>
          {people.filter((p) => p.id !== me).map((p) => <Option key={p.id} value={String(p.id)}>{`${p.realname} (${p.name})`}</Option>)}
        </Combobox>
      </Field>
      <Button appearance="primary" data-testid="share-create" onClick={() => void make()}>{t('share.create')}</Button>
      {created && (
        <Field label={t('share.link')} hint={`${t('share.expiresAt', { time: when(created.expires_at) })}${created.recipient_id ? ` · ${t('share.sentTo', { name: people.find((p) => p.id === created.recipient_id)?.realname ?? '' })}` : ''}`}>
          <Input readOnly value={`${window.location.origin}${created.path}`} data-testid="share-link" onFocus={(e) => e.currentTarget.select()} />
        </Field>
      )}
      <Text weight="semibold">{t('share.mine')}</Text>
      {list.length === 0 && <Text>{t('share.none')}</Text>}
      {list.map((x) => (
        <div key={x.id} className={s.item} data-testid="share-item" data-state={x.state}>
          <Text className={s.grow} size={200}>{t(`share.state.${x.state}`)} · {when(x.expires_at)}</Text>
          {x.state === 'active' && <Button size="small" data-testid="share-revoke" onClick={() => void revokeShare(x.id).then(reload)}>{t('share.revoke')}</Button>}
        </div>
      ))}
      {isGranted('meeting_manage', grants) && (
        <Link className={s.meeting} data-testid="share-meeting" href={`/meeting/view?slide=${slideId}`} onClick={(e) => { e.preventDefault(); navigate(`/meeting/view?slide=${slideId}`); }}>{t('share.meeting')}</Link>
      )}
    </div>
  );
}
