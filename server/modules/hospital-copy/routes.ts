import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { hasPermission } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import { AppError, forbidden } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import { okResponse } from '../../http/responses.js';
import type { TypedApp } from '../../http/types.js';
import { COPY_PART_NAMES, COPY_PARTS, type CopyPart } from './parts.js';
import { copyPart, partCounts } from './queries.js';

const tags = ['hospital-copy'];
const Part = Type.Union(COPY_PART_NAMES.map((p) => Type.Literal(p)));
const CopyBody = Type.Object({
  from: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }),
  parts: Type.Array(Part, { minItems: 1, maxItems: COPY_PART_NAMES.length, uniqueItems: true }),
}, { additionalProperties: false });
// Whoever sets a hospital up; each part asks its own permission too (price list: price_manage, QC lists: qc_manage).
const ACCESS = { access: { permission: 'system_setting' } } as const;

/**
 * Copy configuration from another hospital (issue 31): report templates, numbering rules, the price list and the QC
 * dictionaries of a hospital the caller belongs to, into the one they work in. Only what the working hospital lacks
 * is copied (by each part's key), all parts in one transaction; the operation log records the request.
 */
export function hospitalCopyRoutes(app: TypedApp, db: Db): void {
  const allowedParts = (user: Parameters<typeof hasPermission>[0]) => COPY_PART_NAMES.filter((p) => hasPermission(user, COPY_PARTS[p].permission));

  // The hospitals the caller may copy from, with how much of each part they and the working hospital have.
  app.get('/api/hospital-config/copy', { config: { ...ACCESS, audit: false }, schema: { tags, response: okResponse() } }, async (r) => {
    const here = workingHospital(r);
    const parts = allowedParts(r.auth!);
    const sources = [];
    for (const id of r.auth!.hospitalIds.filter((h) => h !== here)) sources.push({ id, counts: await partCounts(db, id, parts) });
    return ok({ hospital_id: here, parts, here: await partCounts(db, here, parts), sources });
  });

  app.post('/api/hospital-config/copy', { config: ACCESS, schema: { tags, body: CopyBody, response: okResponse() } }, async (r) => {
    const here = workingHospital(r);
    const { from } = r.body;
    const parts = r.body.parts as CopyPart[];
    if (from === here) throw new AppError(422, 'copy.same_hospital');
    if (!r.auth!.hospitalIds.includes(from)) throw new AppError(403, 'copy.not_member', { id: from });
    for (const p of parts) if (!hasPermission(r.auth!, COPY_PARTS[p].permission)) throw forbidden(COPY_PARTS[p].permission);
    const result: Record<string, { copied: number; skipped: number }> = {};
    await db.transaction().execute(async (trx) => {
      for (const p of parts) result[p] = await copyPart(trx, p, from, here);
    });
    return ok({ from, to: here, result });
  });
}
