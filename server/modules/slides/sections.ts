import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope, workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import type { ResourceDef } from '../../resources/definition.js';
import { namedCase } from '../cases/lookup.js';
import { addSections, sectionsById, sectionsOfCase } from './queries.js';
import { okResponse } from '../../http/responses.js';

const SectionInput = Type.Object({
  block_number: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'Wax block, e.g. 1 or A2' }),
  section_number: Type.Optional(Type.Integer({ minimum: 1, maximum: 9999, description: 'Omitted: the next free number of the block' })),
  stain: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'HE (default), an IHC marker or a special stain' })),
  label: Type.Optional(Type.String({ maxLength: 128, description: 'The text or barcode printed on the glass label' })),
});
const AddBody = Type.Object({
  pathology_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  case_id: Type.Optional(Type.Integer({ minimum: 1 })),
  sections: Type.Array(SectionInput, { minItems: 1, maxItems: 200 }),
});

/**
 * Spec §7 `POST data/kfb/sectionAdd` and the section list of a case: the glass slides made from a case's
 * blocks, each later bound to its scanned file (`POST data/kfb/bind` with `section_id`).
 */
export function sectionRoutes(app: TypedApp, db: Db, slidesDef: ResourceDef): void {
  const tags = ['resource:slides'];

  app.post('/api/data/kfb/sectionAdd', { config: { access: { permission: 'case_production' } }, schema: { tags, body: AddBody, response: okResponse() } }, async (request) => {
    const hospitalId = workingHospital(request);
    const caseId = await namedCase(db, hospitalId, request.body);
    if (caseId === null) throw new AppError(422, 'section.case_required');
    const ids = await addSections(db, hospitalId, caseId, request.body.sections, request.auth!.id);
    return ok(await sectionsById(db, ids));
  });

  app.get('/api/data/kfb/sections/:caseId', {
    config: { access: { permission: 'slide_view' }, audit: false },
    schema: { tags, params: Type.Object({ caseId: Type.Integer({ minimum: 1 }) }), response: okResponse() },
  }, async (request) => ok(await sectionsOfCase(db, request.params.caseId, hospitalScope(slidesDef, request) ?? [])));
}
