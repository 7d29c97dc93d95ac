import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.js';
import type { MessageKey } from '../i18n/messages.js';
import type { Params } from '../i18n/translate.js';
import { AppError } from '../http/errors.js';
import type { ResourceDef } from './definition.js';
import { idsInScope } from './queries.js';
import type { Untyped } from './untyped.js';
import { rowScope } from './user-scope.js';

const RESOURCE = 'resource:';

/**
 * A hospital's row refers only to rows of its own hospital that its writer may see: each field a write carries whose
 * options are the rows of another hospital-scoped resource (`"options": "resource:duty_rosters"`, or
 * `resource:cases:id` naming the value column) must name one of `hospitalId`'s rows within the writer's row scope
 * (a case of another subspecialty directory is as absent as another hospital's), or the write is a 422 on that field
 * and nothing is written. Without it a row could point at another hospital's roster or consumable by its id, which
 * the row scope hides but does not refuse.
 */
export async function checkReferences(db: Db, def: ResourceDef, defs: ReadonlyMap<string, ResourceDef>, data: Record<string, unknown>,
  hospitalId: number, request: FastifyRequest): Promise<void> {
  if (def.scope !== 'hospital') return;
  const errors: Record<string, { key: MessageKey; params?: Params }[]> = {};
  for (const [field, column] of Object.entries(def.columns)) {
    const value = data[field];
    if (typeof column.options !== 'string' || !column.options.startsWith(RESOURCE) || value === undefined || value === null || value === '') continue;
    const [name, valueColumn] = column.options.slice(RESOURCE.length).split(':');
    const target = defs.get(name);
    if (target?.scope !== 'hospital') continue;
    const found = await (db as unknown as Kysely<Untyped>).selectFrom(target.table).select('id')
      .where(valueColumn ?? target.optionValue ?? 'id', '=', value as never).where('hospital_id', '=', hospitalId).execute();
    const visible = found.length ? await idsInScope(db, target, found.map((r) => Number(r.id)), rowScope(target, request)) : [];
    const label = typeof column.label === 'object' ? column.label[request.lang] ?? column.label['zh-CN'] : column.label ?? field;
    if (!visible.length) errors[field] = [{ key: 'resource.bad_reference', params: { field: label } }];
  }
  if (Object.keys(errors).length) throw new AppError(422, 'error.validation', {}, errors);
}
