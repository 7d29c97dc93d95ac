import type { Kysely } from 'kysely';
import type { Db } from '../db/connect.js';
import type { MessageKey } from '../i18n/messages.js';
import type { Language, Params } from '../i18n/translate.js';
import { AppError } from '../http/errors.js';
import type { ResourceDef } from './definition.js';
import type { Untyped } from './untyped.js';

const RESOURCE = 'resource:';

/**
 * A hospital's row refers only to rows of its own hospital: each field a write carries whose options are the rows of
 * another hospital-scoped resource (`"options": "resource:duty_rosters"`) must name one of `hospitalId`'s rows, or
 * the write is a 422 on that field and nothing is written. Without it a row could point at another hospital's roster
 * or shift by its id, which the row scope hides but does not refuse.
 */
export async function checkReferences(db: Db, def: ResourceDef, defs: ReadonlyMap<string, ResourceDef>, data: Record<string, unknown>,
  hospitalId: number, lang: Language): Promise<void> {
  if (def.scope !== 'hospital') return;
  const errors: Record<string, { key: MessageKey; params?: Params }[]> = {};
  for (const [field, column] of Object.entries(def.columns)) {
    const value = data[field];
    if (typeof column.options !== 'string' || !column.options.startsWith(RESOURCE) || value === undefined || value === null || value === '') continue;
    const target = defs.get(column.options.slice(RESOURCE.length));
    if (target?.scope !== 'hospital') continue;
    const found = await (db as unknown as Kysely<Untyped>).selectFrom(target.table).select('id')
      .where(target.optionValue ?? 'id', '=', value as never).where('hospital_id', '=', hospitalId).executeTakeFirst();
    const label = typeof column.label === 'object' ? column.label[lang] ?? column.label['zh-CN'] : column.label ?? field;
    if (!found) errors[field] = [{ key: 'resource.bad_reference', params: { field: label } }];
  }
  if (Object.keys(errors).length) throw new AppError(422, 'error.validation', {}, errors);
}
