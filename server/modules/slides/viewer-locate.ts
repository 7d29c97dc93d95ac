import path from 'node:path';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { fromStored, isInside, toStored } from './paths.js';
import { okResponse } from '../../http/responses.js';

const ByPath = Type.Object({
  path: Type.String({ minLength: 1, maxLength: 1024, description: 'The slide file as stored, relative to the data dir (slides/2026/11/x.svs)' }),
});
const BySection = Type.Object({
  caseId: Type.Integer({ minimum: 1 }),
  section: Type.String({ minLength: 1, maxLength: 48, pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'block-section as the glass label reads (A1-2), or the section id' }),
});

/** `A1-2` → block A1, section 2; a block number may itself hold dashes, the section is after the last one. */
export function parseSectionKey(key: string): { block: string; section: number } | { id: number } | null {
  if (/^\d+$/.test(key)) return { id: Number(key) };
  const m = /^(.+)-(\d{1,4})$/.exec(key);
  return m ? { block: m[1]!, section: Number(m[2]) } : null;
}

/**
 * The viewer's two ways in that do not name a slide id (spec §2): `/kfb/path?path=…` (by its stored file) and
 * `/kfb/section/:case/:section` (a case's glass slide). Each answers the slide id the viewer then opens; a slide
 * of a hospital the user is not working in is as absent as a missing one. Reads only: nothing to log.
 */
export function viewerLocateRoutes(app: TypedApp, db: Db, dataDir: string): void {
  const tags = ['resource:slides'];
  const scope = (request: Parameters<typeof hospitalScope>[1]) => { const ids = hospitalScope({ scope: 'hospital' }, request) ?? []; return ids.length ? ids : [0]; };

  app.get('/api/data/kfb/locate/path', {
    config: { access: { permission: 'slide_view' }, audit: false },
    schema: { tags, querystring: ByPath, summary: 'The slide stored at a path', response: okResponse() },
  }, async (request) => {
    // Any spelling of a path inside the data dir (leading slash, backslashes, `./`) meets its stored form; outside it, none.
    const raw = request.query.path.replace(/\\/g, '/').replace(/^\/+/, '');
    const abs = fromStored(dataDir, raw);
    if (!isInside(path.resolve(dataDir), abs)) throw new AppError(422, 'slide.path_invalid', { path: request.query.path });
    const row = await db.selectFrom('slides').select('id').where('file_path', '=', toStored(dataDir, abs))
      .where('hospital_id', 'in', scope(request)).orderBy('id').executeTakeFirst();
    if (!row) throw new AppError(404, 'slide.not_found');
    return ok({ id: row.id });
  });

  app.get('/api/data/kfb/locate/section/:caseId/:section', {
    config: { access: { permission: 'slide_view' }, audit: false },
    schema: { tags, params: BySection, summary: 'The scanned slide of a case\'s glass slide (section)', response: okResponse() },
  }, async (request) => {
    const key = parseSectionKey(request.params.section);
    if (!key) throw new AppError(422, 'section.key_invalid', { section: request.params.section });
    let q = db.selectFrom('slide_sections').innerJoin('slides', 'slides.id', 'slide_sections.slide_id')
      .select(['slides.id']).where('slide_sections.case_id', '=', request.params.caseId).where('slides.hospital_id', 'in', scope(request));
    q = 'id' in key ? q.where('slide_sections.id', '=', key.id)
      : q.where('slide_sections.block_number', '=', key.block).where('slide_sections.section_number', '=', key.section);
    const row = await q.executeTakeFirst();
    if (!row) throw new AppError(404, 'section.no_slide');
    return ok({ id: row.id });
  });
}
