import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { OcrConfig } from '../../config.js';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { MASK, outsideUrlProblem } from '../sso/config.js';
import type { TileService } from '../tiles/tile-service.js';
import { readLabel } from './ocr.js';
import { OCR_DEFAULTS } from './tesseract.js';
import { linkSlides, loadTeachingSetting, saveTeachingSetting, slidesInScope } from './queries.js';
import type { SecretBox } from '../../security/sealed-secrets.js';
import { teachingLibraryFor, type TeachingLibraryAdapter, type TeachingLibrarySetting } from './teaching-library.js';
import { okResponse } from '../../http/responses.js';

export interface OuterOptions {
  publicUrl: string;
  ocr?: Partial<OcrConfig>;
  /** The app's key: the teaching library's token is stored sealed with it. */
  secrets: SecretBox;
  /** Tests and other installations may put their own adapter here; by default the setting decides. */
  teachingLibrary?: (setting: TeachingLibrarySetting | null) => TeachingLibraryAdapter | null;
}

const tags = ['outer'];
const MAX_SLIDES = 100;

/**
 * Spec §7's `outer/*` calls (issue 17): OCR of a slide's label (`outer/ocr`, to suggest the pathology number when
 * binding) and the external teaching library (`outer/jiaopei/library`, `outer/jiaopei/bind`). Slides are those of
 * the hospitals the user works in now (spec §6 show-all-data); another hospital's slide answers as missing.
 */
export function outerRoutes(app: TypedApp, db: Db, tiles: TileService, options: OuterOptions): void {
  const ocr: OcrConfig = { ...OCR_DEFAULTS, ...Object.fromEntries(Object.entries(options.ocr ?? {}).filter(([, v]) => v !== undefined)) };
  const adapterFor = options.teachingLibrary ?? ((setting: TeachingLibrarySetting | null) => teachingLibraryFor(setting, options.secrets));
  const scope = (request: FastifyRequest) => hospitalScope({ scope: 'hospital' }, request)!;

  app.post('/api/outer/ocr', {
    config: { access: { permission: 'slide_view' } },
    schema: {
      tags, summary: 'Reads the text of a slide’s label image (Tesseract) and suggests the cases whose pathology number it shows',
      body: Type.Object({ slide_id: Type.Integer({ minimum: 1 }), image: Type.Optional(Type.Union([Type.Literal('label'), Type.Literal('macro')])) }, { additionalProperties: false }), response: okResponse()
    },
  }, async (request) => {
    const { slide_id: slideId, image = 'label' } = request.body;
    const [slide] = await slidesInScope(db, [slideId], scope(request));
    if (!slide) throw new AppError(404, 'slide.not_found');
    const handle = await tiles.open(String(slideId));
    const picture = await tiles.associated(handle, image).catch((error: unknown) => {
      if (error instanceof AppError && error.status === 404) throw new AppError(422, 'ocr.no_label');
      throw error;
    });
    return ok({ slide_id: slideId, ...(await readLabel(db, slide.hospital_id, picture.body, ocr)) });
  });

  const adapter = async () => {
    const found = adapterFor(await loadTeachingSetting(db));
    if (!found) throw new AppError(409, 'teaching.not_configured');
    return found;
  };

  app.get('/api/outer/jiaopei/library', {
    config: { access: { permission: 'teaching_bind' } },
    schema: { tags, summary: 'The libraries (and chapters) of the external teaching system slides can be linked to', response: okResponse() },
  }, async () => ok({ data: await (await adapter()).libraries() }));

  app.post('/api/outer/jiaopei/bind', {
    config: { access: { permission: 'teaching_bind' } },
    schema: {
      tags, summary: 'Links slides to a library of the external teaching system (slides already linked to it are left as they are)',
      // `ids` is the list engine's batch shape (SlideLibrary's batch action); `slide_ids` the same by its own name.
      body: Type.Union(['slide_ids', 'ids'].map((key) => Type.Object({
        [key]: Type.Array(Type.Integer({ minimum: 1 }), { minItems: 1, maxItems: MAX_SLIDES }),
        library_id: Type.String({ minLength: 1, maxLength: 64 }),
      }, { additionalProperties: false }))), response: okResponse()
    },
  }, async (request) => {
    const body = request.body as { slide_ids?: number[]; ids?: number[]; library_id: string };
    const ids = [...new Set(body.slide_ids ?? body.ids ?? [])];
    const slides = await slidesInScope(db, ids, scope(request));
    // A slide of another hospital, or none at all: the whole request is refused, nothing is sent.
    if (slides.length !== ids.length) throw new AppError(404, 'slide.not_found');
    const library = await adapter();
    const entry = (await library.libraries()).find((l) => l.id === body.library_id);
    if (!entry) throw new AppError(422, 'error.validation', {}, { library_id: [{ key: 'teaching.library_unknown' }] });
    const result = await linkSlides(db, library, entry, slides, { userId: request.auth!.id, publicUrl: options.publicUrl });
    return ok(result);
  });

  app.get('/api/outer/jiaopei/config', {
    config: { access: { permission: 'system_setting' } },
    schema: { tags, summary: 'The teaching library setting (the token only as ***)', response: okResponse() },
  }, async () => ok(viewOf(await loadTeachingSetting(db))));

  app.post('/api/outer/jiaopei/config', {
    config: { access: { permission: 'system_setting' } },
    schema: {
      tags, summary: 'Sets which teaching library adapter is used and where it calls',
      body: Type.Object({
        adapter: Type.Union([Type.Literal('none'), Type.Literal('http')]),
        base_url: Type.Optional(Type.String({ maxLength: 500 })),
        api_token: Type.Optional(Type.String({ maxLength: 4096 })),
      }, { additionalProperties: false }), response: okResponse()
    },
  }, async (request) => {
    const old = await loadTeachingSetting(db);
    const { adapter: kind, base_url: url = old?.base_url ?? '', api_token: token } = request.body;
    const next: TeachingLibrarySetting = {
      adapter: kind, base_url: url.trim().replace(/\/+$/, ''),
      api_token: token === undefined || token === MASK ? old?.api_token ?? '' : token,
    };
    const field = (name: string, key: 'sso.url_invalid' | 'sso.url_insecure' | 'sso.required') => new AppError(422, 'error.validation', {}, { [name]: [{ key }] });
    if (next.base_url) {
      const problem = outsideUrlProblem(next.base_url);
      if (problem) throw field('base_url', problem);
    }
    if (next.adapter === 'http' && !next.base_url) throw field('base_url', 'sso.required');
    await saveTeachingSetting(db, next, options.secrets);
    return ok(viewOf(next));
  });
}

const viewOf = (s: TeachingLibrarySetting | null) => ({
  adapter: s?.adapter ?? 'none', base_url: s?.base_url ?? '', api_token: s?.api_token ? MASK : '',
});

