import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import type { ResourceDef } from '../../resources/definition.js';
import { workingHospital } from '../../http/hospital-scope.js';
import { idsInScope } from '../../resources/queries.js';
import { namedCase } from '../cases/lookup.js';
import { logSlides } from './section-log.js';
import { moveSlides } from './queries.js';
import { okResponse } from '../../http/responses.js';

const MoveBody = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }),
  /** The case the slides now belong to; empty or null unbinds them (back to the uploaded list). */
  pathology_number: Type.Union([Type.String({ maxLength: 64 }), Type.Null()]),
});

/**
 * Binding slides to a case, and batch move (spec §2 slide library): slides of the hospital the user
 * works in go to a case of that same hospital, found by its pathology number.
 */
export function caseBindingRoutes(app: TypedApp, db: Db, def: ResourceDef): void {
  app.post('/api/data/kfb/move', {
    config: { access: { permission: 'slide_upload' } },
    schema: { tags: ['resource:slides'], body: MoveBody, response: okResponse() },
  }, async (request) => {
    const { ids, pathology_number: raw } = request.body;
    const hospitalId = workingHospital(request);
    const unique = [...new Set(ids)];
    if ((await idsInScope(db, def, unique, [hospitalId])).length !== unique.length) throw new AppError(404, 'slide.not_found');
    const number = raw?.trim() || null;
    const caseId = await namedCase(db, hospitalId, { pathology_number: number });
    const moved = await moveSlides(db, unique, caseId);
    await logSlides(db, caseId === null ? 'unbind' : 'move', moved, request.auth!, number ?? undefined);
    return ok({ moved: moved.length, case_id: caseId });
  });
}
