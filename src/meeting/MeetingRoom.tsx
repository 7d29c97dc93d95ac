import { Badge, Button, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router-dom';
import { isGranted } from '../core/actions';
import { useGrants } from '../engine/useGrants';
import type { SlideViewer } from '../viewer/slideViewer';
import { EditMeetingDialog } from './EditMeetingDialog';
import { endMeeting, handBack, switchSlide, takeControl, type MeetingDetail } from './meetingApi';
import { MeetingPane } from './MeetingPane';
import { useMeetingSync } from './useMeetingSync';

const useStyles = makeStyles({
  root: { position: 'fixed', inset: 0, display: 'grid', gridTemplateRows: 'auto 1fr', backgroundColor: tokens.colorNeutralBackground2 },
  bar: { display: 'flex', alignItems: 'center', gap: '12px', padding: '8px 16px', backgroundColor: tokens.colorNeutralBackground1, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  grow: { flex: 1 },
  body: { display: 'grid', gridTemplateColumns: '1fr 280px', minHeight: 0 },
  side: { padding: '12px', display: 'flex', flexDirection: 'column', gap: '6px', overflowY: 'auto', backgroundColor: tokens.colorNeutralBackground1, borderLeft: `1px solid ${tokens.colorNeutralStroke2}` },
  slide: { justifyContent: 'flex-start' },
  current: {
    display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: '8px', padding: '5px 12px',
    border: `1px solid ${tokens.colorBrandStroke1}`, borderRadius: tokens.borderRadiusMedium, backgroundColor: tokens.colorBrandBackground2,
  },
  other: { padding: '5px 13px' },
  ended: { display: 'grid', placeContent: 'center', justifyItems: 'center', gap: '12px', textAlign: 'center' },
  empty: { display: 'grid', placeContent: 'center' },
});

/** One meeting: the slide followed live, who presents, take control / hand back, the presenter's slide switcher. */
export function MeetingRoom({ initial, me }: { initial: MeetingDetail; me: number }) {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const grants = useGrants();
  const [viewer, setViewer] = useState<SlideViewer | null>(null);
  const { meeting, setMeeting, follow } = useMeetingSync(initial, me, viewer);
  const [busy, setBusy] = useState(false);
  const [editing, setEditing] = useState(false);
  const open = meeting.status === 'open';
  const presenting = open && meeting.presenter_id === me;
  const manager = isGranted('meeting_manage', grants);

  useEffect(() => { document.title = `${meeting.name} · ${t('meeting.title')} · DSMS`; }, [meeting.name, t]);

  const run = (call: () => Promise<MeetingDetail>) => {
    setBusy(true);
    // A refusal (someone else took control first) is toasted by the API client in the user's language.
    call().then(setMeeting, () => undefined).finally(() => setBusy(false));
  };
  const who = meeting.presenter_id === null ? t('meeting.nobody') : meeting.presenter_id === me ? t('meeting.you') : meeting.presenter_name;

  return (
    <div className={s.root} data-testid="meeting-room" data-status={meeting.status} data-presenter={meeting.presenter_id ?? ''} data-me={me}
      data-follow-count={follow.count} data-follow-delay={follow.lastDelayMs ?? ''}>
      <header className={s.bar}>
        <Button appearance="subtle" data-testid="meeting-back" onClick={() => navigate('/meeting/view')}>{t('meeting.back')}</Button>
        <Text size={500} weight="semibold">{meeting.name}</Text>
        <Badge appearance="tint" color={open ? 'success' : 'informative'} data-testid="meeting-status">{t(`meeting.status.${meeting.status}`)}</Badge>
        <span className={s.grow} />
        {open && <Text data-testid="meeting-presenter">{t('meeting.presenter', { name: who })}</Text>}
        {open && !presenting && (
          <Button appearance="primary" disabled={busy} data-testid="meeting-take" onClick={() => run(() => takeControl(meeting.id))}>{t('meeting.take')}</Button>
        )}
        {presenting && (
          <Button disabled={busy} data-testid="meeting-handback" onClick={() => run(() => handBack(meeting.id))}>
            {me === meeting.created_by ? t('meeting.release') : t('meeting.handBack')}
          </Button>
        )}
        {open && manager && <Button disabled={busy} data-testid="meeting-edit" onClick={() => setEditing(true)}>{t('meeting.edit')}</Button>}
        {open && manager && <Button disabled={busy} data-testid="meeting-end" onClick={() => run(() => endMeeting(meeting.id))}>{t('meeting.end')}</Button>}
      </header>
      {editing && open && <EditMeetingDialog meeting={meeting} onSaved={setMeeting} onClose={() => setEditing(false)} />}
      {open ? (
        <div className={s.body}>
          {!isGranted('slide_view', grants)
            ? <div className={s.empty} data-testid="meeting-no-images"><Text>{t('meeting.noImages')}</Text></div>
            : meeting.slide_id !== null
            ? <MeetingPane key={meeting.slide_id} slideId={meeting.slide_id} mpp={meeting.slides.find((x) => x.id === meeting.slide_id)?.mpp ?? null} presenting={presenting} annotations={isGranted('slide_annotation_view', grants)} onViewer={setViewer} />
            : <div className={s.empty}><Text>{t('meeting.noSlide')}</Text></div>}
          <aside className={s.side}>
            <Text weight="semibold">{t('meeting.slides')}</Text>
            {!presenting && <Text size={200}>{t('meeting.followHint')}</Text>}
            {meeting.slides.map((sl) => (sl.id === meeting.slide_id
              ? (
                <div key={sl.id} className={s.current} data-testid="meeting-slide" data-slide={sl.id} aria-current="true">
                  <Text weight="semibold">{sl.name}</Text>
                  <Badge appearance="filled" color="brand">{t('meeting.onScreen')}</Badge>
                </div>
              )
              : presenting
                ? <Button key={sl.id} className={s.slide} disabled={busy} data-testid="meeting-slide" data-slide={sl.id} onClick={() => run(() => switchSlide(meeting.id, sl.id))}>{sl.name}</Button>
                : <Text key={sl.id} className={s.other} data-testid="meeting-slide" data-slide={sl.id}>{sl.name}</Text>
            ))}
            <Text weight="semibold">{t('meeting.participants', { count: meeting.participants.length })}</Text>
            {meeting.participants.map((p) => (
              <Text key={p.id} data-testid="meeting-participant">
                {p.realname || p.name}{p.id === meeting.presenter_id ? ` · ${t('meeting.presenting')}` : ''}{p.id === meeting.created_by ? ` · ${t('meeting.hostMark')}` : ''}
              </Text>
            ))}
          </aside>
        </div>
      ) : (
        <div className={s.ended} data-testid="meeting-ended" role="status">
          <Text size={600} weight="semibold">{t('meeting.endedTitle')}</Text>
          <Button appearance="primary" onClick={() => navigate('/meeting/view')}>{t('meeting.back')}</Button>
        </div>
      )}
    </div>
  );
}
