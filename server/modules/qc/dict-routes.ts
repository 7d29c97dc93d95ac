import { Type } from '@sinclair/typebox';
import { sql } from 'kysely';
import { isPostgres, type Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { okResponse } from '../../http/responses.js';

const tags = ['qc-dict'];
/** First key of PostgreSQL's two-key advisory lock: "QC dictionary store"; the second is the hospital id. */
export const PG_LOCK_CLASS = 0x71c;
/** A list's name: specimen_rejection, infectious_specimen, special_advice, cassette_reprint, report_class, timeout_reason, fixation, … */
const DictType = Type.String({ minLength: 1, maxLength: 64, pattern: '^[a-z][a-z0-9_]*$' });
const Name = Type.String({ minLength: 1, maxLength: 255 });
const Rank = Type.Integer({ minimum: 0, maximum: 1_000_000 });
const NewEntry = Type.Object({
  name: Name, en_name: Type.Optional(Type.String({ maxLength: 255 })), code: Type.Optional(Type.String({ maxLength: 64 })), rank: Type.Optional(Rank),
}, { additionalProperties: false });
const Change = Type.Object({
  id: Type.Integer({ minimum: 1 }), name: Type.Optional(Name), en_name: Type.Optional(Type.String({ maxLength: 255 })),
  code: Type.Optional(Type.String({ maxLength: 64 })), rank: Type.Optional(Rank), enabled: Type.Optional(Type.Union([Type.Literal(0), Type.Literal(1)])),
}, { additionalProperties: false });
const READ = { access: 'user' as const, audit: false };
const WRITE = { access: { permission: 'qc_manage' } };
const CHANGE_METHODS: ['PATCH', 'POST'] = ['PATCH', 'POST'];

/**
 * The QC dictionary of spec §7 (`config/dict/qc`): the hospital's own lists (rejection reasons, special advice,
 * timeout reasons, …), each ranked; `update_many` and `rank/{id}` are PATCH as in the spec (POST too). Read by anyone
 * working in the hospital (forms offer them); changed with `qc_manage`. Another hospital's entries are as absent as
 * missing ones.
 */
export function qcDictRoutes(app: TypedApp, db: Db): void {
  const mine = (hospitalId: number, ids: number[]) => db.selectFrom('qc_dict').select(['id', 'type', 'name']).where('hospital_id', '=', hospitalId).where('id', 'in', ids).execute();

  app.get('/api/config/dict/qc/lists', { config: READ, schema: { tags, querystring: Type.Object({ type: Type.Optional(DictType) }), response: okResponse() } }, async (request) => {
    const rows = await db.selectFrom('qc_dict').select(['id', 'type', 'name', 'en_name', 'code', 'rank', 'enabled'])
      .where('hospital_id', '=', workingHospital(request))
      .$if(request.query.type !== undefined, (q) => q.where('type', '=', request.query.type!))
      .orderBy('type').orderBy('rank').orderBy('id').limit(5000).execute();
    return ok(rows);
  });

  app.post('/api/config/dict/qc/store_many', {
    config: WRITE, schema: { tags, body: Type.Object({ type: DictType, items: Type.Array(NewEntry, { minItems: 1, maxItems: 200 }) }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const hospitalId = workingHospital(request);
    const { type, items } = request.body;
    const names = items.map((i) => i.name.trim());
    // Check and insert one store at a time per hospital: two parallel stores of one name must not both pass the check
    // (SQLite serialises its transactions; PostgreSQL takes an advisory lock).
    const rows = await db.transaction().execute(async (trx) => {
      if (isPostgres(db)) await sql`select pg_advisory_xact_lock(${PG_LOCK_CLASS}, ${hospitalId})`.execute(trx);
      const taken = await trx.selectFrom('qc_dict').select('name').where('hospital_id', '=', hospitalId).where('type', '=', type).where('name', 'in', names).execute();
      const repeated = names.filter((n, i) => names.indexOf(n) !== i);
      const clash = [...new Set([...taken.map((t) => t.name), ...repeated])];
      if (clash.length) throw new AppError(422, 'qc_dict.duplicate', { type, names: clash.join('、') });
      const last = await trx.selectFrom('qc_dict').select((eb) => eb.fn.max('rank').as('rank')).where('hospital_id', '=', hospitalId).where('type', '=', type).executeTakeFirst();
      const now = new Date().toISOString();
      const start = Number(last?.rank ?? 0);
      return trx.insertInto('qc_dict').values(items.map((item, i) => ({
        hospital_id: hospitalId, type, name: item.name.trim(), en_name: item.en_name?.trim() || null, code: item.code?.trim() || null,
        rank: item.rank ?? start + i + 1, enabled: 1, created_at: now, updated_at: now,
      }))).returning('id').execute();
    });
    return ok({ ids: rows.map((r) => Number(r.id)) });
  });

  // Spec §7 has update_many and rank as PATCH; POST, as they were first declared, stays for callers written against it.
  app.route({
    method: CHANGE_METHODS,
    url: '/api/config/dict/qc/update_many',
    config: WRITE,
    schema: { tags, body: Type.Object({ items: Type.Array(Change, { minItems: 1, maxItems: 200 }) }, { additionalProperties: false }), response: okResponse() },
    handler: async (request) => {
      const hospitalId = workingHospital(request);
      const { items } = request.body;
      const ids = [...new Set(items.map((i) => i.id))];
      const found = await mine(hospitalId, ids);
      const missing = ids.filter((id) => !found.some((f) => f.id === id));
      if (missing.length) throw new AppError(404, 'qc_dict.not_found', { ids: missing.join(', ') });
      const now = new Date().toISOString();
      // All or nothing: a list half renamed is worse than a refused request.
      await db.transaction().execute(async (trx) => {
        for (const { id, ...change } of items) {
          const set = Object.fromEntries(Object.entries(change).map(([k, v]) => [k, typeof v === 'string' ? v.trim() || (k === 'name' ? v : null) : v]));
          await trx.updateTable('qc_dict').set({ ...set, updated_at: now }).where('id', '=', id).where('hospital_id', '=', hospitalId).execute();
        }
      });
      return ok({ updated: ids.length });
    },
  });

  app.route({
    method: CHANGE_METHODS,
    url: '/api/config/dict/qc/rank/:id',
    config: WRITE,
    schema: { tags, params: Type.Object({ id: Type.Integer({ minimum: 1 }) }), body: Type.Object({ rank: Rank }, { additionalProperties: false }), response: okResponse() },
    handler: async (request) => {
      const hospitalId = workingHospital(request);
      const res = await db.updateTable('qc_dict').set({ rank: request.body.rank, updated_at: new Date().toISOString() })
        .where('id', '=', request.params.id).where('hospital_id', '=', hospitalId).executeTakeFirst();
      if (Number(res.numUpdatedRows) === 0) throw new AppError(404, 'qc_dict.not_found', { ids: String(request.params.id) });
      return ok({ id: request.params.id, rank: request.body.rank });
    },
  });
}
