import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { logSlides } from './section-log.js';
import { okResponse } from '../../http/responses.js';

const Id = Type.Object({ id: Type.Integer({ minimum: 1 }) });

/** What the viewer shows of a slide (spec §2 slide info: case, pathology number, stain, scan time) and sizes its canvas by. */
async function viewerSlide(db: Db, id: number, hospitalIds: number[]) {
  return db.selectFrom('slides')
    .leftJoin('cases', 'cases.id', 'slides.case_id')
    .leftJoin('slide_sections', 'slide_sections.slide_id', 'slides.id')
    .select([
      'slides.id', 'slides.name', 'slides.hospital_id', 'slides.case_id', 'slides.file_path', 'slides.width', 'slides.height', 'slides.levels',
      'slides.mpp', 'slides.objective_power', 'slides.scan_at', 'slides.vendor', 'slides.status', 'slides.has_label', 'slides.has_macro',
      'slides.format_note', 'cases.pathology_number', 'cases.patient_name', 'slide_sections.stain', 'slide_sections.block_number', 'slide_sections.section_number',
    ])
    .where('slides.id', '=', id).where('slides.hospital_id', 'in', hospitalIds.length ? hospitalIds : [0])
    .executeTakeFirst();
}

/**
 * POST /api/data/kfb/open/{id}: the viewer opening a slide. Answers the slide's information and records the view
 * in the section log (spec LogSection; view statistics read it). A POST because it writes that record; the
 * operation log is skipped, the section log is the record of a view.
 */
export function viewerOpenRoutes(app: TypedApp, db: Db): void {
  app.post('/api/data/kfb/open/:id', {
    config: { access: { permission: 'slide_view' }, audit: false },
    schema: { tags: ['resource:slides'], params: Id, summary: 'Open a slide in the viewer: its information, and the view logged', response: okResponse() },
  }, async (request) => {
    const slide = await viewerSlide(db, request.params.id, hospitalScope({ scope: 'hospital' }, request) ?? []);
    if (!slide) throw new AppError(404, 'slide.not_found');
    await logSlides(db, 'view', [{ id: slide.id, name: slide.name, case_id: slide.case_id, file_path: slide.file_path }], request.auth, 'viewer');
    const { file_path: _path, ...info } = slide;
    return ok(info);
  });
}
