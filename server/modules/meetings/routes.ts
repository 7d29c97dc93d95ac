import { Type } from '@sinclair/typebox';
import { PageParam, pageParams } from '../../resources/list-query.js';
import type { FastifyRequest } from 'fastify';
import { MEETING_NAME_MAX, MEETING_SLIDES_MAX, meetingTopic, presenterAfterRelease, takeRefusal } from '../../../src/core/meeting.js';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope, workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import type { RealtimeHub } from '../../realtime/hub.js';
import {
  changeState, createMeeting, inMeeting, isParticipant, join, leave, listMeetings, meetingById, meetingIn, meetingSlides, participants, slidesOfHospital,
  updateMeeting, userName, type MeetingRow,
} from './queries.js';
import { okResponse } from '../../http/responses.js';

const DbId = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 });
const Id = Type.Object({ id: DbId });
const Name = Type.String({ minLength: 1, maxLength: MEETING_NAME_MAX });
const StartAt = Type.String({ minLength: 10, maxLength: 32 });
const SlideIds = Type.Array(DbId, { minItems: 1, maxItems: MEETING_SLIDES_MAX });
const tags = ['meetings'];
const user = { access: 'user' as const };
const manage = { access: { permission: 'meeting_manage' } };
/** Concurrent changes of a meeting's live state are compare-and-set; a take retries this often before giving up. */
const TAKE_ATTEMPTS = 3;

/**
 * Reading meetings (issue 12, spec §2 /meeting/view, §3): a hospital's meeting over a list of its slides. Anyone of
 * the hospital may join and follow; `meeting_manage` creates, edits and ends meetings. The server decides who
 * presents (compare-and-set on the meeting's version, so concurrent takes have one winner) and announces every
 * change of state on the hospital topic dsms/h/<h>/meetings/<id>; the presenter's browser publishes its viewport
 * on its own publisher topic (src/core/meeting.ts). A meeting of another hospital answers as if it did not exist.
 * Spec §6 directories: the meeting as a caller reads it lists only slides of cases in their directories, and a
 * manager puts in only such slides; the hospital topic's announcement names slides by id only.
 */
export function meetingRoutes(app: TypedApp, db: Db, realtime: RealtimeHub): void {
  /** Every slide of a meeting, seen or not by the caller: what the hospital topic names by id and an edit keeps. */
  const everyone = db.withoutPlugins();
  /** The meeting, within the caller's hospitals, or a 404. */
  const find = async (request: FastifyRequest, id: number): Promise<MeetingRow> => {
    const m = await meetingIn(db, id, request.auth!.hospitalIds);
    if (!m) throw new AppError(404, 'meeting.not_found');
    return m;
  };
  const openOne = async (request: FastifyRequest, id: number): Promise<MeetingRow> => {
    const m = await find(request, id);
    if (m.status !== 'open') throw new AppError(409, 'meeting.ended');
    return m;
  };
  /** A manager puts in only slides they may see: another directory's are as unknown as another hospital's. */
  const checkSlides = async (request: FastifyRequest, hospitalId: number, ids: number[]): Promise<number[]> => {
    const wanted = [...new Set(ids)];
    const known = await slidesOfHospital(db, hospitalId, wanted);
    const unknown = wanted.filter((id) => !known.includes(id));
    if (unknown.length) throw new AppError(422, 'meeting.slides_unknown', { ids: unknown.join(', ') });
    return wanted;
  };
  /**
   * The meeting with the slides the caller may see (a slide of a case outside their directories is not listed), or
   * with all of them on `everyone`.
   */
  const detail = async (id: number, slidesOf: Db = db) => {
    const m = await meetingById(db, id);
    return {
      ...wire(m), host_name: await userName(db, m.created_by), presenter_name: await userName(db, m.presenter_id),
      slides: await meetingSlides(slidesOf, id), participants: await participants(db, id),
    };
  };
  /**
   * Tells the hospital what changed. The write is already done: a broker that is away costs the news, not the change.
   * Answers the meeting as the caller may see it.
   */
  const announce = async (request: FastifyRequest, id: number, event: 'state' | 'joined' | 'updated' | 'ended') => {
    const d = await detail(id, everyone);
    // The hospital topic reaches every member, whatever their directories: it names the slides by id only, and a
    // browser whose set of slides changed asks for the meeting as it may see it (src/meeting/useMeetingSync.ts).
    const { slides, ...state } = d;
    await realtime.publish(meetingTopic(d.hospital_id, id), { event, meeting: { ...state, slide_ids: slides.map((sl) => sl.id) } })
      .catch((e: unknown) => request.log.warn({ err: e }, 'meeting announcement not sent'));
    return { ...d, slides: await meetingSlides(db, id) };
  };

  /**
   * The meeting's slides a manager limited to some directories was not shown: a list they send names only the slides
   * they saw, and leaving these out would take other directories' slides out of the meeting without anyone seeing them.
   */
  const slidesHiddenFrom = async (id: number): Promise<number[]> => {
    const seen = new Set((await meetingSlides(db, id)).map((sl) => sl.id));
    return (await meetingSlides(everyone, id)).map((sl) => sl.id).filter((sid) => !seen.has(sid));
  };

  app.get('/api/meetings', {
    config: user,
    schema: { tags, summary: 'Reading meetings of my hospital, open ones first', querystring: Type.Object({
      status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('ended')])),
      page: PageParam,
      page_size: PageParam,
    }), response: okResponse() },
  }, async (request) => {
    const { status } = request.query;
    const { page, pageSize } = pageParams(request.query, { defaultSize: 20, maxSize: 200, maxPage: 100_000 });
    const hospitals = hospitalScope({ scope: 'hospital' }, request)!;
    const { rows, total } = await listMeetings(db, hospitals, { status, page, pageSize });
    return ok({ data: rows.map((r) => ({ ...wire(r), host_name: r.host_name ?? '', presenter_name: r.presenter_name ?? '' })), total, current_page: page, per_page: pageSize, total_pages: Math.ceil(total / pageSize) });
  });

  app.post('/api/meetings', {
    config: manage,
    schema: { tags, summary: 'Start a reading meeting over slides of my hospital', body: Type.Object({
      name: Name, start_at: Type.Optional(StartAt), slide_ids: SlideIds, cover_slide_id: Type.Optional(DbId),
    }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const { name, start_at: startAt, slide_ids: slideIds, cover_slide_id: cover } = request.body;
    const hospitalId = workingHospital(request);
    const slides = await checkSlides(request, hospitalId, slideIds);
    if (cover !== undefined && !slides.includes(cover)) throw new AppError(422, 'meeting.slide_not_in_meeting');
    const id = await createMeeting(db, { hospitalId, userId: request.auth!.id, name: cleanName(name), startAt: startAt === undefined ? new Date().toISOString() : isoTime(startAt), slideIds: slides, coverSlideId: cover ?? null });
    return ok(await announce(request, id, 'updated'));
  });

  app.get('/api/meetings/:id', {
    config: user, schema: { tags, params: Id, summary: 'A meeting: its state, slides and participants', response: okResponse() },
  }, async (request) => {
    const m = await find(request, request.params.id);
    return ok(await detail(m.id));
  });

  app.patch('/api/meetings/:id', {
    config: manage,
    schema: { tags, params: Id, summary: 'Rename, re-time or change the slides of an open meeting', body: Type.Object({
      name: Type.Optional(Name), start_at: Type.Optional(StartAt), slide_ids: Type.Optional(SlideIds), cover_slide_id: Type.Optional(DbId),
    }, { additionalProperties: false, minProperties: 1 }), response: okResponse() },
  }, async (request) => {
    const m = await openOne(request, request.params.id);
    const { name, start_at: startAt, slide_ids: slideIds, cover_slide_id: cover } = request.body;
    const chosen = slideIds && (await checkSlides(request, m.hospital_id, slideIds));
    if (cover !== undefined && !(chosen ? chosen.includes(cover) : await inMeeting(db, m.id, cover))) throw new AppError(422, 'meeting.slide_not_in_meeting');
    const slides = chosen && [...chosen, ...(await slidesHiddenFrom(m.id)).filter((id) => !chosen.includes(id))];
    await updateMeeting(db, m, {
      ...(name !== undefined ? { name: cleanName(name) } : {}), ...(startAt !== undefined ? { startAt: isoTime(startAt) } : {}),
      ...(slides ? { slideIds: slides } : {}), ...(cover !== undefined ? { coverSlideId: cover } : {}),
    });
    return ok(await announce(request, m.id, 'updated'));
  });

  app.post('/api/meetings/:id/end', {
    config: manage, schema: { tags, params: Id, summary: 'End a meeting: nobody presents any more', response: okResponse() },
  }, async (request) => {
    const m = await openOne(request, request.params.id);
    // Retried on a concurrent change: ending must not lose to a slide switch.
    for (let i = 0; i < TAKE_ATTEMPTS; i++) {
      const now = i === 0 ? m : await openOne(request, m.id);
      if (await changeState(db, now, { status: 'ended' })) return ok(await announce(request, m.id, 'ended'));
    }
    throw new AppError(409, 'meeting.control_changed');
  });

  app.post('/api/meetings/:id/join', {
    config: user, schema: { tags, params: Id, summary: 'Join a meeting of my hospital', response: okResponse() },
  }, async (request) => {
    const m = await openOne(request, request.params.id);
    await join(db, m.id, request.auth!.id);
    return ok(await announce(request, m.id, 'joined'));
  });

  app.post('/api/meetings/:id/leave', {
    config: user, schema: { tags, params: Id, summary: 'Leave a meeting; a presenter who leaves hands control back first', response: okResponse() },
  }, async (request) => {
    const me = request.auth!.id;
    let m = await find(request, request.params.id);
    // Control does not stay with someone who has gone: it goes back as a hand-back would (retried on a concurrent change).
    for (let i = 0; i < TAKE_ATTEMPTS && m.status === 'open' && m.presenter_id === me; i++) {
      const next = presenterAfterRelease({ status: m.status, hostId: m.created_by, presenterId: m.presenter_id }, me);
      if (next !== 'not_presenter' && (await changeState(db, m, { presenter_id: next }))) break;
      m = await find(request, m.id);
    }
    await leave(db, m.id, me);
    return ok(await announce(request, m.id, 'joined'));
  });

  app.post('/api/meetings/:id/control/take', {
    config: user, schema: { tags, params: Id, summary: 'Take control: the participants follow my view', response: okResponse() },
  }, async (request) => {
    const me = request.auth!.id;
    const manager = request.scope!.may('meeting_manage');
    if (!(await isParticipant(db, request.params.id, me))) {
      await find(request, request.params.id);
      throw new AppError(409, 'meeting.not_joined');
    }
    for (let i = 0; i < TAKE_ATTEMPTS; i++) {
      const m = await find(request, request.params.id);
      const refusal = takeRefusal({ status: m.status, hostId: m.created_by, presenterId: m.presenter_id }, me, manager);
      if (refusal === 'ended') throw new AppError(409, 'meeting.ended');
      if (refusal === 'held') throw new AppError(409, 'meeting.control_held', { name: await userName(db, m.presenter_id) });
      if (m.presenter_id === me) return ok(await detail(m.id));
      if (await changeState(db, m, { presenter_id: me })) return ok(await announce(request, m.id, 'state'));
    }
    throw new AppError(409, 'meeting.control_changed');
  });

  app.post('/api/meetings/:id/control/release', {
    config: user, schema: { tags, params: Id, summary: 'Hand control back to the host (the host lets it go to nobody)', response: okResponse() },
  }, async (request) => {
    const m = await openOne(request, request.params.id);
    const next = presenterAfterRelease({ status: m.status, hostId: m.created_by, presenterId: m.presenter_id }, request.auth!.id);
    if (next === 'not_presenter') throw new AppError(403, 'meeting.not_presenter');
    if (!(await changeState(db, m, { presenter_id: next }))) throw new AppError(409, 'meeting.control_changed');
    return ok(await announce(request, m.id, 'state'));
  });

  app.post('/api/meetings/:id/slide', {
    config: user,
    schema: { tags, params: Id, summary: 'Show another of the meeting’s slides (the presenter)', body: Type.Object({ slide_id: DbId }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const m = await openOne(request, request.params.id);
    if (m.presenter_id !== request.auth!.id) throw new AppError(403, 'meeting.not_presenter');
    if (!(await inMeeting(db, m.id, request.body.slide_id))) throw new AppError(422, 'meeting.slide_not_in_meeting');
    if (!(await changeState(db, m, { slide_id: request.body.slide_id }))) throw new AppError(409, 'meeting.control_changed');
    return ok(await announce(request, m.id, 'state'));
  });
}

function wire(m: MeetingRow) {
  return {
    id: m.id, hospital_id: m.hospital_id, name: m.name, cover_slide_id: m.cover_slide_id, start_at: m.start_at, created_by: m.created_by,
    presenter_id: m.presenter_id, slide_id: m.slide_id, status: m.status, version: Number(m.version), ended_at: m.ended_at,
  };
}

function cleanName(name: string): string {
  const trimmed = name.trim();
  if (!trimmed) throw new AppError(422, 'meeting.name_empty');
  return trimmed;
}

/** A time the browser sent (ISO 8601 or YYYY-MM-DD HH:mm:ss), stored as ISO; anything else is a 422. */
function isoTime(text: string): string {
  const ms = Date.parse(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}(:\d{2})?$/.test(text) ? text.replace(' ', 'T') : text);
  if (!Number.isFinite(ms)) throw new AppError(422, 'meeting.start_invalid');
  return new Date(ms).toISOString();
}
