import { hospitalTopic, publisherTopic } from './realtime-topics';

/**
 * The rules of a reading meeting (issue 12), shared by the server (who may take control) and the browser (which
 * realtime messages to follow). The meeting's host (its creator) presents first; a participant takes control while
 * the host or nobody holds it, and hands it back to the host; the host and meeting managers may always take it.
 */
export type MeetingStatus = 'open' | 'ended';
export const MEETING_NAME_MAX = 100;
export const MEETING_SLIDES_MAX = 50;

export interface ControlState {
  status: MeetingStatus;
  hostId: number;
  presenterId: number | null;
}

/** Why a take of control is refused, or null when it may go ahead. */
export function takeRefusal(m: ControlState, userId: number, manager: boolean): 'ended' | 'held' | null {
  if (m.status !== 'open') return 'ended';
  if (m.presenterId === null || m.presenterId === userId || m.presenterId === m.hostId) return null;
  // Someone other than the host presents: only the host or a manager may take it from them.
  return userId === m.hostId || manager ? null : 'held';
}

/** Who presents after `userId` hands control back: the host, or nobody when the host lets go. */
export function presenterAfterRelease(m: ControlState, userId: number): number | null | 'not_presenter' {
  if (m.presenterId !== userId) return 'not_presenter';
  return userId === m.hostId ? null : m.hostId;
}

/** Where the server announces a meeting's state (presenter, slide, ended) to the hospital. */
export const meetingTopic = (hospitalId: number, meetingId: number): string => hospitalTopic(hospitalId, 'meetings', meetingId);
/** Where a user's browser publishes its viewport in a meeting (its own publisher segment). */
export const meetingViewTopic = (hospitalId: number, userId: number, meetingId: number): string => publisherTopic(hospitalId, userId, 'meetings', meetingId, 'view');
/** Every participant's viewport topic: the listener keeps only the presenter's. */
export const meetingViewFilter = (hospitalId: number, meetingId: number): string => hospitalTopic(hospitalId, 'p', '+', 'meetings', meetingId, 'view');
/** A late joiner asks here for the presenter's current view. */
export const meetingHelloTopic = (hospitalId: number, userId: number, meetingId: number): string => publisherTopic(hospitalId, userId, 'meetings', meetingId, 'hello');
export const meetingHelloFilter = (hospitalId: number, meetingId: number): string => hospitalTopic(hospitalId, 'p', '+', 'meetings', meetingId, 'hello');

/** The publisher's user id in a publisher topic (dsms/h/<h>/p/<user>/…): the broker vouches for it, the payload does not. */
export function publisherOf(topic: string): number | null {
  const p = topic.split('/');
  if (p[3] !== 'p' || !/^[1-9][0-9]{0,9}$/.test(p[4] ?? '')) return null;
  return Number(p[4]);
}

/** A presenter's viewport: the slide and OpenSeadragon's centre (viewport coordinates), image zoom, rotation, flip. */
export interface MeetingView {
  slide_id: number;
  center: { x: number; y: number };
  imageZoom: number;
  rotation: number;
  flip: boolean;
  /** The presenter's clock when sent (ms): lets the follower log the delay; never trusted for anything else. */
  sent_at: number;
}

const finite = (v: unknown, min: number, max: number): v is number => typeof v === 'number' && Number.isFinite(v) && v >= min && v <= max;

/** A view message as received, checked field by field (another browser wrote it): anything else is null. */
export function parseMeetingView(value: unknown): MeetingView | null {
  if (!value || typeof value !== 'object') return null;
  const v = value as Record<string, unknown>;
  const c = v.center as Record<string, unknown> | undefined;
  if (!Number.isInteger(v.slide_id) || (v.slide_id as number) < 1 || !c || typeof c !== 'object') return null;
  if (!finite(c.x, -1e3, 1e3) || !finite(c.y, -1e3, 1e3) || !finite(v.imageZoom, 1e-6, 1e3) || !finite(v.rotation, -360, 720)) return null;
  if (typeof v.flip !== 'boolean' || !finite(v.sent_at, 0, 1e15)) return null;
  return { slide_id: v.slide_id as number, center: { x: c.x, y: c.y }, imageZoom: v.imageZoom, rotation: v.rotation, flip: v.flip, sent_at: v.sent_at };
}

/**
 * The view a participant should take from a message on the view filter, or null: only the current presenter's (by
 * the publisher id in the topic, never by the payload), never one's own, only for the slide on screen.
 */
export function viewToFollow(topic: string, payload: unknown, now: { presenterId: number | null; slideId: number | null }, me: number): MeetingView | null {
  const from = publisherOf(topic);
  if (from === null || from === me || from !== now.presenterId) return null;
  const view = parseMeetingView(payload);
  return view && view.slide_id === now.slideId ? view : null;
}

/**
 * What a browser does with an announcement of its meeting's state: the hospital topic reaches users of every
 * subspecialty directory, so it names the slides by id only (server/modules/meetings/routes.ts). An older one is
 * ignored; one naming the slides this browser shows is merged into its copy; one whose set of slides differs means the
 * meeting is asked for again, as this user may see it (a user limited to some directories sees fewer slides, and
 * asks each time).
 */
export function announcementStep<M extends { id: number; version: number; slides: readonly { id: number }[] }>(
  current: M, payload: unknown,
): { kind: 'ignore' } | { kind: 'merge'; meeting: M } | { kind: 'fetch' } {
  const m = (payload as { meeting?: unknown } | null)?.meeting as (Omit<M, 'slides'> & { slide_ids?: unknown }) | undefined;
  if (!m || typeof m.version !== 'number' || m.id !== current.id || m.version < current.version || !Array.isArray(m.slide_ids)) return { kind: 'ignore' };
  const { slide_ids: ids, ...state } = m;
  const same = ids.length === current.slides.length && current.slides.every((sl) => ids.includes(sl.id));
  return same ? { kind: 'merge', meeting: { ...current, ...state } } : { kind: 'fetch' };
}
