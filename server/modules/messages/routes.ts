import { Type } from '@sinclair/typebox';
import { PageParam, pageParams } from '../../resources/list-query.js';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { translate, type Language, type Params } from '../../i18n/translate.js';
import { hasPermission } from '../../http/access.js';
import { MessageType } from './types.js';
import { answerClinical, audience, deleteFor, foreignIds, inbox, markRead, membersOf, notAddressedTo, recipientsOf, rolesForNotices, sendMessages, sent, unreadCount } from './queries.js';
import { okResponse } from '../../http/responses.js';

const MAX_IDS = 500;
const Ids = Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: MAX_IDS });
const PageQuery = { page: PageParam, page_size: PageParam };
const PAGES = { defaultSize: 20, maxSize: 200, maxPage: 100_000 };
const Level = Type.Integer({ minimum: 0, maximum: 2, default: 0 });
const Text = { title: Type.String({ maxLength: 200, default: '' }), content: Type.String({ maxLength: 4000, default: '' }) };
const tags = ['messages'];
const user = { access: 'user' as const };

/**
 * Messages and notices (spec §7 `messages/*`, issue 17). Everybody reads, marks and deletes their own; sending needs
 * `message_send` and reaches only active users of the sender's working hospital; a notice (`notice_publish`) goes to
 * all of them or to chosen roles. Another user's message id answers as if it did not exist. A message about a case
 * outside the reader's subspecialty directories is left out of their inbox and unread count (spec §6).
 */
export function messageRoutes(app: TypedApp, db: Db): void {
  app.get('/api/messages/lists', {
    config: user,
    schema: { tags, summary: 'Messages to me, newest first (include=fromUser adds the sender)', querystring: Type.Object({
      ...PageQuery, unread: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])), include: Type.Optional(Type.String({ maxLength: 50 })),
      type: Type.Optional(MessageType),
    }), response: okResponse() },
  }, async (request) => {
    const { unread, include, type } = request.query;
    const { page, pageSize } = pageParams(request.query, PAGES);
    const { rows, total } = await inbox(db, request.auth!.id, { page, pageSize }, unread === 1, type);
    const withSender = (include ?? '').split(',').includes('fromUser');
    return ok({
      data: rows.map((r) => ({
        id: r.id, kind: r.kind, level: r.level, type: r.type, link: r.link, read_at: r.read_at, created_at: r.created_at, from_user_id: r.from_user_id,
        clinical: r.clinical, clinical_status: r.clinical_status, clinical_note: r.clinical_note, clinical_at: r.clinical_at,
        ...worded(request.lang, r),
        ...(withSender ? { fromUser: r.from_user_id === null ? null : { id: r.from_user_id, name: r.from_name, realname: r.from_realname } } : {}),
      })),
      total, current_page: page, per_page: pageSize,
    });
  });

  app.get('/api/messages/send-by-me', {
    config: user, schema: { tags, summary: 'What I sent, one entry per sending, with how many read it', querystring: Type.Object(PageQuery), response: okResponse() },
  }, async (request) => {
    const { page, pageSize } = pageParams(request.query, PAGES);
    const { rows, total } = await sent(db, request.auth!.id, { page, pageSize });
    return ok({ data: rows, total, current_page: page, per_page: pageSize });
  });

  app.get('/api/messages/unread-to-me', { config: user, schema: { tags, summary: 'How many unread messages I have, and the newest five', response: okResponse() } }, async (request) => {
    const [count, latest] = await Promise.all([
      unreadCount(db, request.auth!.id),
      inbox(db, request.auth!.id, { page: 1, pageSize: 5 }, true, undefined),
    ]);
    return ok({ count, data: latest.rows.map((r) => ({ id: r.id, kind: r.kind, level: r.level, type: r.type, link: r.link, created_at: r.created_at, ...worded(request.lang, r) })) });
  });

  app.post('/api/messages/mark-as-read', {
    config: user,
    schema: { tags, summary: 'Mark my messages read (msg_ids, or all: true)', body: Type.Union([
      Type.Object({ msg_ids: Ids }, { additionalProperties: false }),
      Type.Object({ all: Type.Literal(true) }, { additionalProperties: false }),
    ]), response: okResponse() },
  }, async (request) => {
    const body = request.body;
    if ('msg_ids' in body) await refuseForeign(request, body.msg_ids);
    const changed = await markRead(db, request.auth!.id, 'msg_ids' in body ? body.msg_ids : 'all');
    return ok({ changed, unread: await unreadCount(db, request.auth!.id) });
  });

  app.delete('/api/messages/destroy', {
    config: user, schema: { tags, summary: 'Delete messages from my inbox or my sent list', body: Type.Object({ msg_ids: Ids }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    await refuseForeign(request, request.body.msg_ids);
    await deleteFor(db, request.auth!.id, request.body.msg_ids);
    return ok({ unread: await unreadCount(db, request.auth!.id) });
  });

  // Spec §7 (body not shown): the clinical side answers a message that asks for it (a critical finding, a question
  // about the specimen): received, then handled, with a note; the sender's sent list counts the answers.
  app.post('/api/messages/change-clinical', {
    config: user,
    schema: { tags, summary: 'Answer messages to me that ask for a clinical answer: received or handled, with a note', body: Type.Object({
      msg_ids: Ids, status: Type.Union([Type.Literal('received'), Type.Literal('handled')]), note: Type.Optional(Type.String({ maxLength: 1000 })),
    }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const ids = [...new Set(request.body.msg_ids)];
    const foreign = await foreignIds(db, request.auth!.id, ids);
    const sentByMe = foreign.length ? [] : await notAddressedTo(db, request.auth!.id, ids);
    // Only the recipient answers: the sender's own copy of the id is not theirs to answer.
    if (foreign.length || sentByMe.length) throw new AppError(404, 'message.not_yours');
    const note = request.body.note?.trim() || null;
    const outcome = await answerClinical(db, request.auth!.id, ids, request.body.status, note);
    if (outcome === 'not_clinical') throw new AppError(422, 'message.not_clinical');
    if (outcome === 'order') throw new AppError(422, 'message.clinical_order');
    return ok({ changed: ids.length, unread: await unreadCount(db, request.auth!.id) });
  });

  app.get('/api/messages/recipients', {
    config: { access: { permission: 'message_send' } }, schema: { tags, summary: 'Who I can write to (my working hospital), and the roles a notice can target', response: okResponse() },
  }, async (request) => ok({
    users: await recipientsOf(db, workingHospital(request)),
    roles: hasPermission(request.auth!, 'notice_publish') ? await rolesForNotices(db) : [],
  }));

  app.post('/api/messages/send', {
    config: { access: { permission: 'message_send' } },
    schema: { tags, summary: 'Send a message to users of my hospital', body: Type.Object({
      user_ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 200 }), ...Text, level: Type.Optional(Level), type: Type.Optional(MessageType),
      clinical: Type.Optional(Type.Boolean({ description: 'Ask the recipients for a clinical answer (received, handled: messages/change-clinical)' })),
    }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const { user_ids: ids, title, content, level = 0, type = 'general', clinical = false } = request.body;
    if (!title.trim() && !content.trim()) throw new AppError(422, 'message.empty');
    const hospitalId = workingHospital(request);
    const wanted = [...new Set(ids)];
    const members = await membersOf(db, hospitalId, wanted);
    const unknown = wanted.filter((id) => !members.includes(id));
    if (unknown.length) throw new AppError(422, 'message.recipient_unknown', { ids: unknown.join(', ') });
    const batch = await sendMessages(db, { userId: request.auth!.id, hospitalId }, members, { kind: 'message', level, type, title: title.trim(), content, clinical });
    return ok({ batch, recipients: members.length });
  });

  app.post('/api/messages/notice', {
    config: { access: { permission: 'notice_publish' } },
    schema: { tags, summary: 'Publish a notice to my hospital, or to chosen roles in it', body: Type.Object({
      ...Text, level: Type.Optional(Level), type: Type.Optional(MessageType), role_ids: Type.Optional(Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 100 })),
    }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const { title, content, level = 0, type = 'general', role_ids: roleIds } = request.body;
    if (!title.trim() && !content.trim()) throw new AppError(422, 'message.empty');
    const hospitalId = workingHospital(request);
    const to = await audience(db, hospitalId, roleIds);
    if (!to.length) throw new AppError(422, 'message.no_recipients');
    const batch = await sendMessages(db, { userId: request.auth!.id, hospitalId }, to, { kind: 'notice', level, type, title: title.trim(), content });
    return ok({ batch, recipients: to.length });
  });

  async function refuseForeign(request: FastifyRequest, ids: number[]): Promise<void> {
    const foreign = await foreignIds(db, request.auth!.id, [...new Set(ids)]);
    if (foreign.length) throw new AppError(404, 'message.not_yours');
  }
}

/** A system message's title and content in the reader's language; others as written. */
function worded(lang: Language, row: { title: string; content: string; message_key: string | null; params: string | null }): { title: string; content: string } {
  if (!row.message_key) return { title: row.title, content: row.content };
  let params: Params = {};
  try { params = JSON.parse(row.params ?? '{}') as Params; } catch { /* a damaged row still shows its words, unfilled */ }
  // System messages carry what people wrote (names, reasons) as parameters: never read as message keys.
  const literal = { literal: true };
  return { title: translate(lang, `${row.message_key}.title`, params, literal), content: translate(lang, `${row.message_key}.content`, params, literal) };
}
