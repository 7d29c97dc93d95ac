import { useEffect, useRef, useState } from 'react';
import {
  announcementStep, meetingHelloFilter, meetingHelloTopic, meetingTopic, meetingViewFilter, meetingViewTopic, publisherOf, viewToFollow, type MeetingView,
} from '../core/meeting';
import { publish, subscribe } from '../realtime/client';
import type { SlideViewer } from '../viewer/slideViewer';
import { getMeeting, type MeetingDetail } from './meetingApi';

/** The presenter repeats its view this often while it stands still, so a participant who just arrived catches up. */
const HEARTBEAT_MS = 3000;

const newer = (m: Pick<MeetingDetail, 'id' | 'version'>, than: MeetingDetail) => m.id === than.id && m.version >= than.version;

export interface FollowStats { count: number; lastDelayMs: number | null }

/**
 * Keeps a meeting room live over the realtime channel (src/core/meeting.ts topics): the server's announcements of
 * the meeting's state replace ours when newer; the presenter's browser publishes its viewport as it moves (once per
 * animation frame at most) and on request; every other browser follows only view messages whose publisher — the
 * id in the topic, which the broker vouches for — is the current presenter, for the slide on screen.
 */
export function useMeetingSync(initial: MeetingDetail, me: number, viewer: SlideViewer | null): { meeting: MeetingDetail; setMeeting(m: MeetingDetail): void; follow: FollowStats } {
  const [meeting, setState] = useState(initial);
  const [follow, setFollow] = useState<FollowStats>({ count: 0, lastDelayMs: null });
  const current = useRef(meeting);
  current.current = meeting;
  const viewerRef = useRef(viewer);
  viewerRef.current = viewer;
  /** The newest view for the slide on screen that arrived before its viewer opened. */
  const pending = useRef<MeetingView | null>(null);
  const { id, hospital_id: h } = initial;

  // An answer of ours or an announcement: the newer state wins (a join keeps the version, so equal replaces too).
  const setMeeting = (m: MeetingDetail) => { if (newer(m, current.current)) setState(m); };

  // Announcements name the slides by id only: merged into ours, or the meeting asked for again (announcementStep).
  useEffect(() => subscribe(meetingTopic(h, id), (payload) => {
    const step = announcementStep(current.current, payload);
    if (step.kind === 'merge') setState(step.meeting);
    else if (step.kind === 'fetch') void getMeeting(id).then((fresh) => { if (newer(fresh, current.current)) setState(fresh); }, () => undefined);
  }), [h, id]);

  // Following the presenter.
  useEffect(() => {
    const apply = (v: MeetingView) => {
      const w = viewerRef.current;
      if (!w || !w.opened) { pending.current = v; return; }
      pending.current = null;
      w.follow(v);
      setFollow((f) => ({ count: f.count + 1, lastDelayMs: Math.max(0, Date.now() - v.sent_at) }));
    };
    return subscribe(meetingViewFilter(h, id), (payload, topic) => {
      const v = viewToFollow(topic, payload, { presenterId: current.current.presenter_id, slideId: current.current.slide_id }, me);
      if (v) apply(v);
    });
  }, [h, id, me]);

  // A view that came before the viewer opened is applied once it has.
  useEffect(() => {
    if (!viewer) return undefined;
    return viewer.onChange(() => {
      const v = pending.current;
      if (v && viewer.opened && current.current.presenter_id !== me && v.slide_id === current.current.slide_id) {
        pending.current = null;
        viewer.follow(v);
      }
    });
  }, [viewer, me]);

  const presenting = meeting.presenter_id === me && meeting.status === 'open';
  const slideId = meeting.slide_id;

  // Presenting: publish the view as it moves, on request (a hello), and now and then while still.
  useEffect(() => {
    if (!presenting || !viewer || slideId === null) return undefined;
    const send = () => {
      if (!viewer.opened) return;
      const st = viewer.state();
      const view: MeetingView = { slide_id: slideId, center: st.center, imageZoom: st.imageZoom, rotation: st.rotation, flip: st.flip, sent_at: Date.now() };
      void publish(meetingViewTopic(h, me, id), view).catch(() => undefined);
    };
    let raf = 0;
    const off = viewer.onChange(() => { if (!raf) raf = requestAnimationFrame(() => { raf = 0; send(); }); });
    const stopHello = subscribe(meetingHelloFilter(h, id), (_payload, topic) => { if (publisherOf(topic) !== me) send(); });
    const timer = setInterval(send, HEARTBEAT_MS);
    send();
    return () => { off(); cancelAnimationFrame(raf); stopHello(); clearInterval(timer); };
  }, [presenting, viewer, slideId, h, id, me]);

  // Following someone: ask for their view when they or the slide change.
  const presenter = meeting.presenter_id;
  useEffect(() => {
    if (presenting || presenter === null || meeting.status !== 'open') return;
    void publish(meetingHelloTopic(h, me, id), { slide_id: slideId }).catch(() => undefined);
  }, [presenting, presenter, slideId, h, id, me, meeting.status]);

  return { meeting, setMeeting, follow };
}
