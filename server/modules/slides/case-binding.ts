import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import type { ResourceDef } from '../../resources/definition.js';
import { workingHospital } from '../../http/hospital-scope.js';
import { idsInScope } from '../../resources/queries.js';
import { caseIdByNumber, namedCase } from '../cases/lookup.js';
import { logSlides } from './section-log.js';
import { bindChoices, glassSlidesByCode, moveSlides } from './queries.js';
import { okResponse } from '../../http/responses.js';

const MoveBody = Type.Object({
  ids: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: 1000 }),
  /** The case the slides now belong to; empty or null unbinds them (back to the uploaded list). */
  pathology_number: Type.Optional(Type.Union([Type.String({ maxLength: 64 }), Type.Null()])),
  /**
   * What the bind dialog sends: a glass slide's code (chosen from the offered ones, or scanned from its label's barcode
   * into the field) or a case's pathology number. A glass slide takes one file, which it links to; a case takes any.
   */
  code: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
});

/** The glass slide (and its case) or the case a bind names; a code naming neither is a translated 404. */
async function bindTarget(db: Db, hospitalId: number, body: { code?: string; pathology_number?: string | null }, ids: number[]) {
  const code = body.code?.trim();
  if (!code) return { caseId: await namedCase(db, hospitalId, { pathology_number: body.pathology_number ?? null }), sectionId: null, text: body.pathology_number?.trim() || undefined };
  const glass = await glassSlidesByCode(db, hospitalId, code).executeTakeFirst();
  if (glass) {
    if (ids.length !== 1) throw new AppError(422, 'section.one_file');
    if (glass.slide_id !== null && glass.slide_id !== ids[0]) throw new AppError(409, 'section.already_bound');
    return { caseId: glass.case_id, sectionId: glass.id, text: code };
  }
  const caseId = await caseIdByNumber(db, hospitalId, code);
  if (caseId === null) throw new AppError(404, 'slide.bind_target_unknown', { code });
  return { caseId, sectionId: null, text: code };
}

/**
 * Binding slides to a case or to one of its glass slides, and batch move (spec §2 slide library): slides of the hospital
 * the user works in go to a case of that same hospital, found by its pathology number, or to a glass slide found by its
 * label code; the digital slide then carries the glass slide's block, number and stain (the viewer's slide info).
 */
export function caseBindingRoutes(app: TypedApp, db: Db, def: ResourceDef): void {
  app.post('/api/data/kfb/move', {
    config: { access: { permission: 'slide_upload' } },
    schema: { tags: ['resource:slides'], body: MoveBody, response: okResponse() },
  }, async (request) => {
    const { ids, pathology_number: number, code } = request.body;
    // Nothing named is a mistake, not an unbind: unbinding says so with `pathology_number: null`.
    if (code === undefined && number === undefined) throw new AppError(422, 'error.validation', {}, { code: [{ key: 'slide.bind_target_required' }] });
    const hospitalId = workingHospital(request);
    const unique = [...new Set(ids)];
    if ((await idsInScope(db, def, unique, [hospitalId])).length !== unique.length) throw new AppError(404, 'slide.not_found');
    const target = await bindTarget(db, hospitalId, request.body, unique);
    const moved = await moveSlides(db, unique, target.caseId, target.sectionId);
    await logSlides(db, target.caseId === null ? 'unbind' : 'move', moved, request.auth!, target.text);
    return ok({ moved: moved.length, case_id: target.caseId, section_id: target.sectionId });
  });

  app.get('/api/data/kfb/bind/choices', {
    config: { access: { permission: 'slide_upload' }, audit: false },
    schema: { tags: ['resource:slides'], summary: 'What a slide can be bound to in the working hospital: glass slides not yet scanned, and cases', response: okResponse() },
  }, async (request) => ok(await bindChoices(db, workingHospital(request))));
}
