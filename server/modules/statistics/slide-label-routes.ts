import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError, forbidden } from '../../http/errors.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { labelChoices, labelExists, putLabel, removeLabel, slidesWithin } from './label-queries.js';
import { okResponse } from '../../http/responses.js';

const Id = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 });
/** A batch from a list page: at most a page of 500 slides and one label. */
const Body = Type.Object({ ids: Type.Array(Id, { minItems: 1, maxItems: 500 }), label_id: Id }, { additionalProperties: false });
const tags = ['resource:labels'];
const perm = { access: { permission: 'slide_label' } } as const;

/**
 * Labels put on slides by hand (issue 16): from SlideLibrary's row and batch actions, `slide_label` puts one label
 * on the chosen slides or takes it off. Every slide must be one of the user's hospital(s) and subspecialty
 * directories (else 404 and nothing changes) and the label must exist; a label a slide already carries is kept as it was. The operation log records
 * each call (POST). LabelStatistics counts these rows with the automatic ones.
 */
export function slideLabelRoutes(app: TypedApp, db: Db): void {
  /** The slides of the request, all within the user's scope, or a 404 before anything is written. */
  const slidesOf = async (request: Parameters<typeof hospitalScope>[1], ids: number[]) => {
    const unique = [...new Set(ids)];
    const rows = await slidesWithin(db, unique, hospitalScope({ scope: 'hospital' }, request)!);
    if (rows.length !== unique.length) throw new AppError(404, 'slide.not_found');
    return rows;
  };
  const labelOf = async (id: number) => {
    const label = await labelExists(db, id);
    if (!label) throw new AppError(404, 'label.not_found');
    return label;
  };

  // The choices of the put/remove prompts: readable by those who label slides, not only by label_manage.
  app.get('/api/config/labels/choices', { config: { access: 'user', audit: false }, schema: { tags, response: okResponse() } }, async (request) => {
    if (!request.scope!.may('slide_label') && !request.scope!.may('label_manage')) throw forbidden('slide_label');
    return ok(await labelChoices(db));
  });

  app.post('/api/config/labels/slides/put', { config: perm, schema: { tags, body: Body, response: okResponse() } }, async (request) => {
    const slides = await slidesOf(request, request.body.ids);
    const label = await labelOf(request.body.label_id);
    const added = await putLabel(db, label.id, slides, request.auth!.id, new Date().toISOString());
    return ok({ label_id: label.id, slide_ids: slides.map((s) => s.id), added });
  });

  app.post('/api/config/labels/slides/remove', { config: perm, schema: { tags, body: Body, response: okResponse() } }, async (request) => {
    const slides = await slidesOf(request, request.body.ids);
    const label = await labelOf(request.body.label_id);
    const removed = await removeLabel(db, label.id, slides.map((s) => s.id));
    return ok({ label_id: label.id, slide_ids: slides.map((s) => s.id), removed });
  });
}
