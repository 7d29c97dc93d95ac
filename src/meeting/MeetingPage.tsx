import { makeStyles, Spinner, Text } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { useSession } from '../store/session';
import { getMeeting, joinMeeting, leaveMeeting, leaveOnUnload, type MeetingDetail } from './meetingApi';
import { MeetingList } from './MeetingList';
import { MeetingRoom } from './MeetingRoom';
import './words';

const useStyles = makeStyles({
  center: { position: 'fixed', inset: 0, display: 'grid', placeContent: 'center', justifyItems: 'center', gap: '12px' },
});

/**
 * /meeting/view (spec §2): the hospital's reading meetings, or with ?id= one meeting's room. Entering an open
 * meeting joins it; an ended one shows that it has ended.
 */
export default function MeetingPage() {
  const [params] = useSearchParams();
  const id = Number(params.get('id'));
  const me = useSession((s) => s.user?.id ?? 0);
  return Number.isInteger(id) && id > 0 ? <RoomLoader key={id} id={id} me={me} /> : <MeetingList preselect={Number(params.get('slide')) || null} />;
}

function RoomLoader({ id, me }: { id: number; me: number }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [meeting, setMeeting] = useState<MeetingDetail | null>(null);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let live = true;
    getMeeting(id)
      .then((m) => (m.status === 'open' ? joinMeeting(id) : m))
      .then((m) => { if (live) setMeeting(m); }, () => { if (live) setFailed(true); });
    return () => { live = false; };
  }, [id]);

  // Leaving the room (another page, the tab closed) leaves the meeting, so control does not stay with someone gone;
  // a page restored from the back-forward cache joins again.
  useEffect(() => {
    const gone = () => leaveOnUnload(id);
    const back = (e: PageTransitionEvent) => { if (e.persisted) void joinMeeting(id).then(setMeeting, () => undefined); };
    window.addEventListener('pagehide', gone);
    window.addEventListener('pageshow', back);
    return () => {
      window.removeEventListener('pagehide', gone);
      window.removeEventListener('pageshow', back);
      void leaveMeeting(id).catch(() => undefined);
    };
  }, [id]);

  if (failed) return <div className={s.center} role="alert" data-testid="meeting-missing"><Text size={500}>{t('meeting.notFound')}</Text></div>;
  if (!meeting) return <div className={s.center}><Spinner /></div>;
  return <MeetingRoom initial={meeting} me={me} />;
}
