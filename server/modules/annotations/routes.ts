import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import { isAdmin } from '../../../src/core/admin.js';
import { ANNOTATION_TYPES, type Point } from '../../../src/core/annotationGeometry.js';
import { MAX_IMPORT_FEATURES } from '../../../src/core/annotationGeoJson.js';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { annotationById, annotationsOf, deleteAnnotation, insertAnnotations, slideForAnnotations, updateAnnotation, type AnnotationRow, type NewAnnotation } from './queries.js';
import { checkedMeasurement } from './rules.js';
import { okResponse } from '../../http/responses.js';

/** Spec §6: slide annotations are seen with this code; writing them needs it too (one annotates what one sees). */
export const ANNOTATION_PERMISSION = 'slide_annotation_view';

const Coordinate = Type.Number({ minimum: -1e7, maximum: 1e7 });
/** A hard ceiling against huge bodies; the rule's own limit (10,000) answers in words before this is reached. */
const Points = Type.Array(Type.Tuple([Coordinate, Coordinate]), { minItems: 1, maxItems: 20_000 });
const Fields = {
  name: Type.Optional(Type.String({ maxLength: 100 })),
  description: Type.Optional(Type.String({ maxLength: 2000 })),
  color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$' })),
  classification: Type.Optional(Type.String({ maxLength: 64 })),
};
const Shape = Type.Object({ type: Type.Union(ANNOTATION_TYPES.map((t) => Type.Literal(t))), points: Points, ...Fields }, { additionalProperties: false });
const Change = Type.Object({ version: Type.Integer({ minimum: 1 }), points: Type.Optional(Points), ...Fields }, { additionalProperties: false });
const Import = Type.Object({ annotations: Type.Array(Shape, { maxItems: MAX_IMPORT_FEATURES + 1 }) }, { additionalProperties: false });
const SlideId = Type.Object({ slideId: Type.Integer({ minimum: 1 }) });
const Id = Type.Object({ id: Type.Integer({ minimum: 1 }) });

const DEFAULT_COLOR = '#ff0000';
const tags = ['annotations'];
const access = { access: { permission: ANNOTATION_PERMISSION } };

/**
 * Annotations of a slide (issue 11): listed and drawn by anyone holding slide_annotation_view in the slide's
 * hospital (another hospital's slide answers 404, as if it did not exist); changed or deleted only by their
 * author or an administrator. Measurements are computed here from the slide's mpp, never taken from the client.
 */
export function annotationRoutes(app: TypedApp, db: Db): void {
  const slideOf = async (request: FastifyRequest, slideId: number) => {
    const slide = await slideForAnnotations(db, slideId, hospitalScope({ scope: 'hospital' }, request) ?? []);
    if (!slide) throw new AppError(404, 'slide.not_found');
    return slide;
  };
  const newRow = (request: FastifyRequest, slide: Awaited<ReturnType<typeof slideOf>>, shape: Static<typeof Shape>, now: string): NewAnnotation => ({
    slide_id: slide.id, hospital_id: slide.hospital_id, user_id: request.auth!.id, username: request.auth!.name,
    type: shape.type, points: JSON.stringify(shape.points), name: shape.name ?? '', description: shape.description ?? '',
    color: shape.color ?? DEFAULT_COLOR, classification: shape.classification ?? '',
    ...checkedMeasurement({ type: shape.type, points: shape.points as Point[] }, slide), created_at: now, updated_at: now,
  });
  /** The annotation, if in the user's hospital scope and theirs to change (or they are an administrator). */
  const ownAnnotation = async (request: FastifyRequest, id: number) => {
    const row = await annotationById(db, id);
    if (!row || !(hospitalScope({ scope: 'hospital' }, request) ?? []).includes(row.hospital_id)) throw new AppError(404, 'annotation.not_found');
    // The annotation's slide must still be one the user may see (its case may since have gone to another directory).
    if (!(await slideForAnnotations(db, row.slide_id, [row.hospital_id]))) throw new AppError(404, 'annotation.not_found');
    if (row.user_id !== request.auth!.id && !isAdmin(request.auth!)) throw new AppError(403, 'annotation.not_yours');
    return row;
  };

  app.get('/api/slide/annotations/:slideId', { config: access, schema: { tags, params: SlideId, summary: 'The annotations of a slide', response: okResponse() } }, async (request) => {
    await slideOf(request, request.params.slideId);
    return ok((await annotationsOf(db, request.params.slideId)).map(wire));
  });

  app.post('/api/slide/annotations/:slideId', { config: access, schema: { tags, params: SlideId, body: Shape, summary: 'Draw an annotation on a slide', response: okResponse() } }, async (request) => {
    const slide = await slideOf(request, request.params.slideId);
    const [id] = await insertAnnotations(db, [newRow(request, slide, request.body, new Date().toISOString())]);
    return ok(wire((await annotationById(db, id!))!));
  });

  app.post('/api/slide/annotations/:slideId/import', {
    config: access, schema: { tags, params: SlideId, body: Import, summary: 'Import many annotations at once (from GeoJSON, converted by the browser); all or none', response: okResponse() },
  }, async (request) => {
    const { annotations } = request.body;
    if (annotations.length > MAX_IMPORT_FEATURES) throw new AppError(422, 'annotation.too_many_features', { max: MAX_IMPORT_FEATURES });
    const slide = await slideOf(request, request.params.slideId);
    const now = new Date().toISOString();
    // Every shape is checked before any is written.
    const rows = annotations.map((shape) => newRow(request, slide, shape, now));
    const ids = new Set(await insertAnnotations(db, rows));
    return ok((await annotationsOf(db, slide.id)).filter((r) => ids.has(r.id)).map(wire));
  });

  app.patch('/api/slide/annotations/item/:id', { config: access, schema: { tags, params: Id, body: Change, summary: 'Change an annotation (author or administrator); version must match', response: okResponse() } }, async (request) => {
    const row = await ownAnnotation(request, request.params.id);
    const { version, points, ...fields } = request.body;
    const change: Partial<NewAnnotation> = { ...fields, updated_at: new Date().toISOString() };
    if (points) {
      const slide = await slideOf(request, row.slide_id);
      Object.assign(change, { points: JSON.stringify(points), ...checkedMeasurement({ type: row.type as Static<typeof Shape>['type'], points: points as Point[] }, slide) });
    }
    if (!(await updateAnnotation(db, row.id, version, change))) throw new AppError(409, 'annotation.changed');
    return ok(wire((await annotationById(db, row.id))!));
  });

  app.delete('/api/slide/annotations/item/:id', { config: access, schema: { tags, params: Id, summary: 'Delete an annotation (author or administrator)', response: okResponse() } }, async (request) => {
    const row = await ownAnnotation(request, request.params.id);
    await deleteAnnotation(db, row.id);
    return ok({ id: row.id });
  });
}

/** As the browser reads it: points as an array, not the stored JSON text. */
export function wire(row: AnnotationRow) {
  return { ...row, points: JSON.parse(row.points) as Point[] };
}
