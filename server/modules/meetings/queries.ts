import type { Db } from '../../db/connect.js';
import type { MeetingStatus } from '../../../src/core/meeting.js';

/** A meeting as the API answers it (without its slides and participants). */
export interface MeetingRow {
  id: number;
  hospital_id: number;
  name: string;
  cover_slide_id: number | null;
  start_at: string;
  created_by: number;
  presenter_id: number | null;
  slide_id: number | null;
  status: MeetingStatus;
  version: number;
  ended_at: string | null;
}

const COLUMNS = ['meetings.id', 'meetings.hospital_id', 'meetings.name', 'meetings.cover_slide_id', 'meetings.start_at', 'meetings.created_by',
  'meetings.presenter_id', 'meetings.slide_id', 'meetings.status', 'meetings.version', 'meetings.ended_at'] as const;

/** The meeting if it belongs to one of these hospitals (else undefined: answered as not found). Meetings are a
 * hospital's, not its cases': the row scope narrows their slides (meeting_slides), not them. */
export async function meetingIn(db: Db, id: number, hospitalIds: number[]): Promise<MeetingRow | undefined> {
  return db.selectFrom('meetings').select(COLUMNS)
    .where('id', '=', id).where('hospital_id', 'in', hospitalIds.length ? hospitalIds : [0]).executeTakeFirst();
}

export async function listMeetings(db: Db, hospitalIds: number[], f: { status?: MeetingStatus; page: number; pageSize: number }) {
  const base = db.selectFrom('meetings').where('meetings.hospital_id', 'in', hospitalIds.length ? hospitalIds : [0])
    .$if(!!f.status, (q) => q.where('meetings.status', '=', f.status!));
  const [rows, count] = await Promise.all([
    base.leftJoin('users as host', 'host.id', 'meetings.created_by').leftJoin('users as presenter', 'presenter.id', 'meetings.presenter_id')
      .select([...COLUMNS, 'host.realname as host_name', 'presenter.realname as presenter_name'])
      // Open meetings first, then by time, newest first.
      .orderBy('meetings.status', 'desc').orderBy('meetings.start_at', 'desc').orderBy('meetings.id', 'desc')
      .limit(f.pageSize).offset((f.page - 1) * f.pageSize).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

/** Of these slide ids, the ones in the hospital that the caller may see (the row scope: their directories). */
export async function slidesOfHospital(db: Db, hospitalId: number, ids: number[]): Promise<number[]> {
  if (!ids.length) return [];
  const rows = await db.selectFrom('slides').select('id').where('hospital_id', '=', hospitalId).where('id', 'in', ids).execute();
  return rows.map((r) => r.id);
}

/**
 * The meeting's slides in order, those the caller may see (the row scope), or all of them on the unscoped handle; with
 * their microns per pixel, so the room measures in µm as the viewer does.
 */
export async function meetingSlides(db: Db, meetingId: number) {
  return db.selectFrom('meeting_slides').innerJoin('slides', 'slides.id', 'meeting_slides.slide_id')
    .select(['slides.id', 'slides.name', 'slides.status', 'slides.mpp']).where('meeting_slides.meeting_id', '=', meetingId)
    .orderBy('meeting_slides.rank').execute();
}

export async function participants(db: Db, meetingId: number) {
  return db.selectFrom('meeting_participants').innerJoin('users', 'users.id', 'meeting_participants.user_id')
    .select(['users.id', 'users.name', 'users.realname', 'meeting_participants.joined_at'])
    .where('meeting_participants.meeting_id', '=', meetingId).orderBy('meeting_participants.joined_at').execute();
}

export async function isParticipant(db: Db, meetingId: number, userId: number): Promise<boolean> {
  return !!(await db.selectFrom('meeting_participants').select('user_id').where('meeting_id', '=', meetingId).where('user_id', '=', userId).executeTakeFirst());
}

export async function userName(db: Db, id: number | null): Promise<string> {
  if (id === null) return '';
  const row = await db.selectFrom('users').select(['realname', 'name']).where('id', '=', id).executeTakeFirst();
  return row?.realname || row?.name || '';
}

/** A new meeting: the host presents the first slide; the host is its first participant. */
export async function createMeeting(db: Db, v: { hospitalId: number; userId: number; name: string; startAt: string; slideIds: number[]; coverSlideId: number | null }): Promise<number> {
  return db.transaction().execute(async (trx) => {
    const now = new Date().toISOString();
    const { id } = await trx.insertInto('meetings').values({
      hospital_id: v.hospitalId, name: v.name, cover_slide_id: v.coverSlideId ?? v.slideIds[0] ?? null, start_at: v.startAt, created_by: v.userId,
      presenter_id: v.userId, slide_id: v.slideIds[0] ?? null, status: 'open', ended_at: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('meeting_slides').values(v.slideIds.map((slide_id, rank) => ({ meeting_id: id, slide_id, rank }))).execute();
    await trx.insertInto('meeting_participants').values({ meeting_id: id, user_id: v.userId, joined_at: now }).execute();
    return id;
  });
}

/** Name, time, cover and slide list (the slide on screen stays when it is still in the list, else the first). */
export async function updateMeeting(db: Db, m: MeetingRow, v: { name?: string; startAt?: string; slideIds?: number[]; coverSlideId?: number | null }): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const slides = v.slideIds;
    if (slides) {
      // The whole list goes, slides the caller was not shown too: the route passes those back (slidesHiddenFrom).
      await trx.withoutPlugins().deleteFrom('meeting_slides').where('meeting_id', '=', m.id).execute();
      await trx.insertInto('meeting_slides').values(slides.map((slide_id, rank) => ({ meeting_id: m.id, slide_id, rank }))).execute();
    }
    const slideId = slides && (m.slide_id === null || !slides.includes(m.slide_id)) ? slides[0] ?? null : m.slide_id;
    const cover = v.coverSlideId !== undefined ? v.coverSlideId : slides && m.cover_slide_id !== null && !slides.includes(m.cover_slide_id) ? slides[0] ?? null : m.cover_slide_id;
    await trx.updateTable('meetings').set((eb) => ({
      ...(v.name !== undefined ? { name: v.name } : {}),
      ...(v.startAt !== undefined ? { start_at: v.startAt } : {}),
      cover_slide_id: cover, slide_id: slideId, version: eb('version', '+', 1), updated_at: new Date().toISOString(),
    })).where('id', '=', m.id).execute();
  });
}

/**
 * Changes the meeting's live state only if nobody changed it since `version` was read: concurrent takes of
 * control (or a take racing a hand-back) have exactly one winner. Answers whether this change won.
 */
export async function changeState(db: Db, m: Pick<MeetingRow, 'id' | 'version'>, set: { presenter_id?: number | null; slide_id?: number; status?: 'ended' }): Promise<boolean> {
  const now = new Date().toISOString();
  const res = await db.updateTable('meetings').set({ ...set, ...(set.status === 'ended' ? { ended_at: now, presenter_id: null } : {}), version: m.version + 1, updated_at: now })
    .where('id', '=', m.id).where('version', '=', m.version).where('status', '=', 'open').executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Joins once; joining again keeps the first time. */
export async function join(db: Db, meetingId: number, userId: number): Promise<void> {
  await db.insertInto('meeting_participants').values({ meeting_id: meetingId, user_id: userId, joined_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['meeting_id', 'user_id']).doNothing()).execute();
}

/** Leaves; answers whether the user had joined. */
export async function leave(db: Db, meetingId: number, userId: number): Promise<boolean> {
  const res = await db.deleteFrom('meeting_participants').where('meeting_id', '=', meetingId).where('user_id', '=', userId).executeTakeFirst();
  return Number(res.numDeletedRows) > 0;
}

export async function inMeeting(db: Db, meetingId: number, slideId: number): Promise<boolean> {
  return !!(await db.selectFrom('meeting_slides').select('slide_id').where('meeting_id', '=', meetingId).where('slide_id', '=', slideId).executeTakeFirst());
}

/** A meeting by id, every column (its caller found it in scope first). */
export const meetingById = async (db: Db, id: number): Promise<MeetingRow> =>
  (await db.selectFrom('meetings').selectAll().where('id', '=', id).executeTakeFirstOrThrow()) as MeetingRow;
