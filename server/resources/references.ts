import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.js';
import { AppError } from '../http/errors.js';
import type { Language } from '../i18n/translate.js';
import type { ResourceDef } from './definition.js';
import { idsInScope } from './queries.js';
import { rowScope } from './user-scope.js';

/**
 * A written column whose options are another hospital-scoped resource's rows (`"options": "resource:consumables"`)
 * must name a row the writer can see: an id of another hospital's row (or of none) is a translated 422 and nothing is
 * written, so a stock order cannot point at a consumable of a hospital its writer does not work in. Resources that
 * are not hospital-scoped (roles, hospitals themselves) are left to their own hooks.
 */
export async function checkReferences(db: Db, def: ResourceDef, byName: ReadonlyMap<string, ResourceDef>, written: Record<string, unknown>, request: FastifyRequest): Promise<void> {
  for (const [column, value] of Object.entries(written)) {
    const options = def.columns[column]?.options;
    if (typeof options !== 'string' || !options.startsWith('resource:') || value === null || value === undefined || value === '') continue;
    const target = byName.get(options.slice('resource:'.length));
    if (target?.scope !== 'hospital') continue;
    const id = Number(value);
    const found = Number.isInteger(id) && id >= 1 && id <= 2_147_483_647 && (await idsInScope(db, target, [id], rowScope(target, request))).length === 1;
    if (!found) throw new AppError(422, 'resource.bad_reference', { field: labelOf(def, column, request.lang) });
  }
}

const labelOf = (def: ResourceDef, column: string, lang: Language) => {
  const label = def.columns[column].label;
  return typeof label === 'object' && label ? (label as Record<string, string>)[lang] ?? column : column;
};
