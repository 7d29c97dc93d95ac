import { sql } from 'kysely';
import { isPostgres } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import { PG_LOCK_CLASS } from './dict-queries.js';

/**
 * The QC dictionary as a generic resource (SettingQcDict): the same rules as spec §7's `store_many`, so the page and
 * the spec routes keep one list — a name once per list (type) and hospital, names stored trimmed, and a new entry
 * without a rank goes to the end of its list.
 */
export const qcDictHooks: ResourceHooks = {
  async beforeWrite(data, ctx, db) {
    const current = ctx.id === undefined ? undefined
      : await db.selectFrom('qc_dict').select(['hospital_id', 'type']).where('id', '=', ctx.id).executeTakeFirst();
    const hospitalId = current?.hospital_id ?? ctx.hospitalId;
    const type = current?.type ?? (typeof data.type === 'string' ? data.type : undefined);
    if (hospitalId === undefined || type === undefined) return {};
    // The type is which list the entry is in; moving it would carry its id (and what refers to it) into another list.
    if (current && data.type !== undefined && data.type !== current.type) {
      throw new AppError(422, 'qc_dict.type_fixed', {}, { type: [{ key: 'qc_dict.type_fixed', params: {} }] });
    }
    const out: Record<string, unknown> = {};
    if (typeof data.name === 'string') {
      const name = data.name.trim();
      if (!name) throw new AppError(422, 'validation.required', { field: 'name' }, { name: [{ key: 'validation.required', params: { field: 'name' } }] });
      const taken = await db.selectFrom('qc_dict').select('id').where('hospital_id', '=', hospitalId).where('type', '=', type).where('name', '=', name)
        .$if(ctx.id !== undefined, (q) => q.where('id', '!=', ctx.id!)).executeTakeFirst();
      if (taken) throw new AppError(422, 'qc_dict.duplicate', { type, names: name }, { name: [{ key: 'qc_dict.duplicate', params: { type, names: name } }] });
      out.name = name;
    }
    if (ctx.creating && (data.rank === undefined || data.rank === null)) {
      const last = await db.selectFrom('qc_dict').select((eb) => eb.fn.max('rank').as('rank')).where('hospital_id', '=', hospitalId).where('type', '=', type).executeTakeFirst();
      out.rank = Number(last?.rank ?? 0) + 1;
    }
    return out;
  },
  /**
   * beforeWrite's look runs before the write's transaction, so two saves of one name at once both pass it. Inside the
   * transaction, after the row is written, the name is counted again under store_many's lock for the hospital
   * (PostgreSQL's advisory lock; SQLite serialises writers): the later of two racing saves sees the first and rolls back.
   */
  async afterWrite(trx, id) {
    const row = await trx.selectFrom('qc_dict').select(['hospital_id', 'type', 'name']).where('id', '=', id).executeTakeFirst();
    if (!row) return;
    if (isPostgres(trx)) await sql`select pg_advisory_xact_lock(${PG_LOCK_CLASS}, ${row.hospital_id})`.execute(trx);
    const same = await trx.selectFrom('qc_dict').select((eb) => eb.fn.countAll<number>().as('n'))
      .where('hospital_id', '=', row.hospital_id).where('type', '=', row.type).where('name', '=', row.name).executeTakeFirstOrThrow();
    if (Number(same.n) > 1) {
      throw new AppError(422, 'qc_dict.duplicate', { type: row.type, names: row.name }, { name: [{ key: 'qc_dict.duplicate', params: { type: row.type, names: row.name } }] });
    }
  },
};
