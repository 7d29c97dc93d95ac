import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { MessageTable } from '../../db/schema.js';
import { emitEvent } from '../../events/bus.js';

export type MessageRow = Omit<MessageTable, 'id'> & { id: number };
export type NewMessage = Pick<MessageTable, 'kind' | 'level' | 'title' | 'content'> & Partial<Pick<MessageTable, 'type' | 'message_key' | 'params' | 'link' | 'case_id'>> & { clinical?: boolean };

/** Sends one message to each recipient in one statement; the rows share a batch. Answers the batch. */
export async function sendMessages(db: Db, from: { userId: number | null; hospitalId: number | null }, to: number[], message: NewMessage): Promise<string> {
  const batch = randomUUID();
  const created_at = new Date().toISOString();
  if (to.length) {
    await db.insertInto('messages').values(to.map((user_id) => ({
      batch, hospital_id: from.hospitalId, user_id, from_user_id: from.userId, created_at,
      kind: message.kind, level: message.level, type: message.type ?? 'general', title: message.title, content: message.content,
      message_key: message.message_key ?? null, params: message.params ?? null, link: message.link ?? null, case_id: message.case_id ?? null,
      clinical: message.clinical ? 1 : 0,
    }))).execute();
    emitEvent(db, 'messages.sent', { userIds: to });
  }
  return batch;
}

interface Page { page: number; pageSize: number }

/*
 * A message about a case outside the reader's directories (it names the case and its patient) is as absent as
 * another user's, from the list, the counts and the unread count alike: the row scope (messages.case_id).
 */

/** `type`: only messages of that type (the message centre's filter). */
export async function inbox(db: Db, userId: number, { page, pageSize }: Page, unreadOnly: boolean, type?: string) {
  const base = db.selectFrom('messages').where('user_id', '=', userId).where('recipient_deleted', '=', 0)
    .$if(unreadOnly, (q) => q.where('read_at', 'is', null))
    .$if(type !== undefined, (q) => q.where('type', '=', type!));
  const [rows, count] = await Promise.all([
    base.leftJoin('users as sender', 'sender.id', 'messages.from_user_id')
      .select(['messages.id', 'messages.kind', 'messages.level', 'messages.type', 'messages.title', 'messages.content', 'messages.message_key',
        'messages.params', 'messages.link', 'messages.read_at', 'messages.created_at', 'messages.from_user_id',
        'messages.clinical', 'messages.clinical_status', 'messages.clinical_note', 'messages.clinical_at',
        'sender.realname as from_realname', 'sender.name as from_name'])
      .orderBy('messages.id', 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
    base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
  ]);
  return { rows, total: Number(count.n) };
}

export async function unreadCount(db: Db, userId: number): Promise<number> {
  const { n } = await db.selectFrom('messages').select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('user_id', '=', userId).where('recipient_deleted', '=', 0).where('read_at', 'is', null).executeTakeFirstOrThrow();
  return Number(n);
}

/** The sender's view: one entry per sending, with how many received and read it. */
export async function sent(db: Db, userId: number, { page, pageSize }: Page) {
  const base = db.selectFrom('messages').where('from_user_id', '=', userId).where('sender_deleted', '=', 0);
  const [rows, count] = await Promise.all([
    base.select((eb) => [
      'batch', eb.fn.min('id').as('id'), eb.fn.max('kind').as('kind'), eb.fn.max('level').as('level'), eb.fn.max('type').as('type'), eb.fn.max('title').as('title'),
      eb.fn.max('content').as('content'), eb.fn.max('created_at').as('created_at'),
      eb.fn.countAll<number | string>().as('recipients'), eb.fn.count<number | string>('read_at').as('read'),
      eb.fn.max('clinical').as('clinical'), eb.fn.count<number | string>('clinical_status').as('clinical_answered'),
      eb.fn.sum<number | string>(sql`case when clinical_status = 'handled' then 1 else 0 end`).as('clinical_handled'),
    ]).groupBy('batch').orderBy(sql`min(id)`, 'desc').limit(pageSize).offset((page - 1) * pageSize).execute(),
    base.select((eb) => eb.fn.count<number | string>(sql`distinct batch`).as('n')).executeTakeFirstOrThrow(),
  ]);
  const batches = rows.map((r) => r.batch);
  const names = batches.length
    ? await db.selectFrom('messages').innerJoin('users', 'users.id', 'messages.user_id').select(['messages.batch', 'users.realname'])
      .where('messages.batch', 'in', batches).orderBy('messages.id').execute()
    : [];
  return {
    rows: rows.map((r) => ({
      ...r, id: Number(r.id), level: Number(r.level), recipients: Number(r.recipients), read: Number(r.read),
      clinical: Number(r.clinical), clinical_answered: Number(r.clinical_answered), clinical_handled: Number(r.clinical_handled ?? 0),
      // The first few names: a notice to a whole hospital lists hundreds.
      to: names.filter((n) => n.batch === r.batch).slice(0, 5).map((n) => n.realname),
    })),
    total: Number(count.n),
  };
}

/** Marks the user's own messages read; answers how many changed. */
export async function markRead(db: Db, userId: number, ids: number[] | 'all'): Promise<number> {
  const result = await db.updateTable('messages').set({ read_at: new Date().toISOString() })
    .where('user_id', '=', userId).where('read_at', 'is', null).where('recipient_deleted', '=', 0)
    .$if(ids !== 'all', (q) => q.where('id', 'in', ids as number[])).executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/** Ids among `ids` that are neither to nor from the user (or already gone for them). */
export async function foreignIds(db: Db, userId: number, ids: number[]): Promise<number[]> {
  const mine = await db.selectFrom('messages').select('id').where('id', 'in', ids)
    .where((eb) => eb.or([
      eb.and([eb('user_id', '=', userId), eb('recipient_deleted', '=', 0)]),
      eb.and([eb('from_user_id', '=', userId), eb('sender_deleted', '=', 0)]),
    ])).execute();
  const known = new Set(mine.map((r) => r.id));
  return ids.filter((id) => !known.has(id));
}

/**
 * Deletes for the user only: a received message leaves their inbox, a sent one (by any id of its batch) their sent
 * list; the other side keeps its copy. Rows nobody keeps any more are removed.
 */
export async function deleteFor(db: Db, userId: number, ids: number[]): Promise<void> {
  await db.transaction().execute(async (trx) => {
    await trx.updateTable('messages').set({ recipient_deleted: 1 }).where('user_id', '=', userId).where('id', 'in', ids).execute();
    const batches = trx.selectFrom('messages').select('batch').where('from_user_id', '=', userId).where('id', 'in', ids);
    await trx.updateTable('messages').set({ sender_deleted: 1 }).where('from_user_id', '=', userId).where('batch', 'in', batches).execute();
    await trx.deleteFrom('messages').where('recipient_deleted', '=', 1)
      .where((eb) => eb.or([eb('sender_deleted', '=', 1), eb('from_user_id', 'is', null)]))
      .where((eb) => eb.or([eb('user_id', '=', userId), eb('from_user_id', '=', userId)])).execute();
  });
}

/** Of `ids`, the active users who belong to the hospital. */
export async function membersOf(db: Db, hospitalId: number, ids: number[]): Promise<number[]> {
  const rows = await db.selectFrom('user_hospitals').innerJoin('users', 'users.id', 'user_hospitals.user_id').select('users.id')
    .where('user_hospitals.hospital_id', '=', hospitalId).where('users.id', 'in', ids).where('users.status', '=', 1).execute();
  return rows.map((r) => r.id);
}

/** The active users of a hospital, or only those holding one of `roleIds`. */
export async function audience(db: Db, hospitalId: number, roleIds: number[] | undefined): Promise<number[]> {
  const rows = await db.selectFrom('user_hospitals').innerJoin('users', 'users.id', 'user_hospitals.user_id').select('users.id').distinct()
    .where('user_hospitals.hospital_id', '=', hospitalId).where('users.status', '=', 1)
    .$if(!!roleIds?.length, (q) => q.where('users.id', 'in', (eb) => eb.selectFrom('user_roles').select('user_id').where('role_id', 'in', roleIds!)))
    .execute();
  return rows.map((r) => r.id);
}

/** Who a message can go to: the active users of the hospital (a hospital has hundreds, not tens of thousands). */
export async function recipientsOf(db: Db, hospitalId: number) {
  return db.selectFrom('user_hospitals').innerJoin('users', 'users.id', 'user_hospitals.user_id')
    .select(['users.id', 'users.name', 'users.realname']).where('user_hospitals.hospital_id', '=', hospitalId)
    .where('users.status', '=', 1).orderBy('users.realname').limit(5000).execute();
}

export async function rolesForNotices(db: Db) {
  return db.selectFrom('roles').select(['id', 'name', 'en_name']).orderBy('id').execute();
}

/** The order a clinical answer moves in; it never goes back. */
const CLINICAL_BEFORE: Record<'received' | 'handled', ('received' | null)[]> = { received: [null], handled: [null, 'received'] };

/**
 * Records the clinical side's answer on messages to the user that ask for one (spec §7 messages/change-clinical):
 * all of `ids` or none. The condition is part of the update, so two answers racing cannot both move one message,
 * and an answer also marks the message read. Answers how many changed, or why none did.
 */
export async function answerClinical(db: Db, userId: number, ids: number[], status: 'received' | 'handled', note: string | null): Promise<'ok' | 'not_clinical' | 'order'> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx.selectFrom('messages').select(['id', 'clinical']).where('user_id', '=', userId).where('recipient_deleted', '=', 0)
      .where('id', 'in', ids).execute();
    if (rows.some((r) => r.clinical !== 1)) return 'not_clinical';
    const at = new Date().toISOString();
    const before = CLINICAL_BEFORE[status];
    const result = await trx.updateTable('messages')
      .set((eb) => ({ clinical_status: status, clinical_at: at, read_at: eb.fn.coalesce('read_at', eb.val(at)), ...(note === null ? {} : { clinical_note: note }) }))
      .where('user_id', '=', userId).where('recipient_deleted', '=', 0).where('clinical', '=', 1).where('id', 'in', ids)
      .where((eb) => eb.or([eb('clinical_status', 'is', null), ...before.filter((b) => b !== null).map((b) => eb('clinical_status', '=', b))]))
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== ids.length) throw new ClinicalOrder();
    return 'ok';
  }).catch((error: unknown) => {
    if (error instanceof ClinicalOrder) return 'order' as const;
    throw error;
  });
}

/** Rolls the transaction back when some message had already gone as far. */
class ClinicalOrder extends Error {}

/** Ids among `ids` of messages to someone other than the user (such as the sender's own copy of one they sent). */
export async function notAddressedTo(db: Db, userId: number, ids: number[]): Promise<number[]> {
  return (await db.selectFrom('messages').select('id').where('id', 'in', ids).where('user_id', '<>', userId).execute()).map((r) => r.id);
}
