import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { ResourceDef } from '../../resources/definition.js';
import { workingHospital } from '../../resources/hospital-scope.js';
import { idsInScope } from '../../resources/queries.js';
import { namedCase } from '../cases/lookup.js';
import { logSlides } from './section-log.js';
import { releaseSections } from './sections.js';

const MoveBody = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }),
  /** The case the slides now belong to; empty or null unbinds them (back to the uploaded list). */
  pathology_number: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
});

/**
 * Binding slides to a case, and batch move (spec §2 slide library): slides of the hospital the user
 * works in go to a case of that same hospital, found by its pathology number.
 */
export function caseBindingRoutes(app: FastifyInstance, db: Db, def: ResourceDef): void {
  app.post('/api/data/kfb/move', {
    config: { access: { permission: 'slide_upload' } },
    schema: { tags: ['resource:slides'], body: MoveBody },
  }, async (request) => {
    const { ids, pathology_number: raw } = request.body as { ids: number[]; pathology_number: string | null };
    const hospitalId = workingHospital(request);
    const unique = [...new Set(ids)];
    if ((await idsInScope(db, def, unique, [hospitalId])).length !== unique.length) throw new AppError(404, 'slide.not_found');
    const number = raw?.trim() || null;
    const caseId = await namedCase(db, hospitalId, { pathology_number: number });

    const moved = await db.transaction().execute(async (trx) => {
      await trx.updateTable('slides').set({ case_id: caseId, updated_at: new Date().toISOString() }).where('id', 'in', unique).execute();
      await releaseSections(trx, unique, caseId);
      return trx.selectFrom('slides').select(['id', 'name', 'case_id', 'file_path']).where('id', 'in', unique).execute();
    });
    await logSlides(db, caseId === null ? 'unbind' : 'move', moved, request.auth!, number ?? undefined);
    return ok({ moved: moved.length, case_id: caseId });
  });
}
