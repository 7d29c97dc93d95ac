import { Type } from '@sinclair/typebox';
import { PageParam, pageParams } from '../../resources/list-query.js';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope, workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { matchLabels } from '../../../src/core/autoLabel.js';
import { statRange, STAT_PERIODS } from '../../../src/core/statPeriods.js';
import { deleteLabel, labelNames, labelRecord, labelUse, putAutoLabels, slideForAutoLabel } from './label-queries.js';
import { okResponse } from '../../http/responses.js';

const Id = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 });
const tags = ['resource:labels'];
const perm = { access: { permission: 'label_manage' } } as const;

/**
 * Spec §7 label calls beside the labels resource (issue 16): how often each label is used on the working
 * hospital's slides in a period, by percentage (searchLabelPercent); the record of labels put on slides
 * (maintenance_record); the automatic labelling of one slide from its case's words (auto_label/{id}); removing one
 * label (destroy/{id}). Counts are one grouped query. Slides of cases outside the user's subspecialty directories
 * are left out of the counts and the record, and auto-labelling one answers as a missing slide.
 */
export function labelRoutes(app: TypedApp, db: Db): void {
  app.post('/api/config/labels/searchLabelPercent', {
    config: { ...perm, audit: false },
    schema: {
      tags,
      body: Type.Object({
        period: Type.Optional(Type.String({ maxLength: 32 })),
        from: Type.Optional(Type.String({ maxLength: 10 })),
        to: Type.Optional(Type.String({ maxLength: 10 })),
        utc_offset: Type.Optional(Type.Integer({ minimum: -720, maximum: 840 })),
      }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const q = request.body;
    const range = statRange({ period: q.period, from: q.from, to: q.to, utcOffset: q.utc_offset ?? 0 }, new Date());
    if (typeof range === 'string') throw new AppError(422, range, { periods: STAT_PERIODS.join(', ') });
    const rows = await labelUse(db, workingHospital(request), range.start, range.end);
    const total = rows.reduce((a, r) => a + Number(r.count), 0);
    return ok({
      range: { from: range.from, to: range.to },
      total,
      data: rows.map((r) => ({ ...r, count: Number(r.count), percent: total ? Math.round((Number(r.count) / total) * 1000) / 10 : 0 })),
    });
  });

  app.get('/api/config/labels/maintenance_record', {
    config: { ...perm, audit: false },
    schema: { tags, querystring: Type.Object({ page: PageParam, page_size: PageParam }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const { page, pageSize: size } = pageParams(request.query, { defaultSize: 20, maxSize: 200, maxPage: 100_000 });
    const { total, data } = await labelRecord(db, hospitalScope({ scope: 'hospital' }, request)!, page, size);
    return ok({ data, total, current_page: page, per_page: size, total_pages: Math.ceil(total / size) });
  });

  // A write (it puts labels on a slide) behind a GET, as spec §7 names it; recorded in the operation log by hand.
  app.get('/api/config/labels/auto_label/:id', {
    config: { ...perm },
    schema: { tags, params: Type.Object({ id: Id }), response: okResponse() },
  }, async (request) => {
    const slide = await slideForAutoLabel(db, request.params.id, hospitalScope({ scope: 'hospital' }, request)!);
    if (!slide) throw new AppError(404, 'slide.not_found');
    const matched = matchLabels(await labelNames(db), [slide.specimen_name, slide.clinical_diagnosis, slide.name]);
    const added = await putAutoLabels(db, {
      slide, labels: matched, by: { id: request.auth!.id, name: request.auth!.name ?? null },
      request: { method: 'GET', path: request.url, route: '/api/config/labels/auto_label/:id', ip: request.ip }, at: new Date().toISOString(),
    });
    return ok({ slide_id: slide.id, matched, added });
  });

  app.delete('/api/config/labels/destroy/:id', {
    config: { ...perm },
    schema: { tags, params: Type.Object({ id: Id }), response: okResponse() },
  }, async (request) => {
    if (!(await deleteLabel(db, request.params.id))) throw new AppError(404, 'error.not_found');
    return ok({ id: request.params.id });
  });
}
