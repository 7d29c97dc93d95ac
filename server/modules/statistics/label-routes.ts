import { Type } from '@sinclair/typebox';
import { PageParam, pageParams } from '../../resources/list-query.js';
import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope, workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { matchLabels } from '../../../src/core/autoLabel.js';
import { statRange, STAT_PERIODS } from '../../../src/core/statPeriods.js';
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
      }, { additionalProperties: false }), response: okResponse()
    },
  }, async (request) => {
    const q = request.body;
    const range = statRange({ period: q.period, from: q.from, to: q.to, utcOffset: q.utc_offset ?? 0 }, new Date());
    if (typeof range === 'string') throw new AppError(422, range, { periods: STAT_PERIODS.join(', ') });
    const rows = await db.selectFrom('labels')
      .leftJoin('slide_labels as sl', (j) => j.onRef('sl.label_id', '=', 'labels.id')
        .on('sl.hospital_id', '=', workingHospital(request)).on('sl.created_at', '>=', range.start).on('sl.created_at', '<', range.end))
      .select(['labels.id', 'labels.name', 'labels.en_name', 'labels.color', sql<number>`count(sl.id)`.as('count')])
      .groupBy(['labels.id', 'labels.name', 'labels.en_name', 'labels.color', 'labels.rank'])
      .orderBy('labels.rank').orderBy('labels.id').execute();
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
    const base = db.selectFrom('slide_labels as sl').where('sl.hospital_id', 'in', hospitalScope({ scope: 'hospital' }, request)!);
    const [{ n }, data] = await Promise.all([
      base.select(sql<number>`count(*)`.as('n')).executeTakeFirstOrThrow(),
      base.innerJoin('labels', 'labels.id', 'sl.label_id').innerJoin('slides', 'slides.id', 'sl.slide_id').leftJoin('users', 'users.id', 'sl.created_by')
        .select(['sl.id', 'sl.slide_id', 'slides.name as slide_name', 'sl.label_id', 'labels.name as label_name', 'labels.en_name as label_en_name', 'sl.source', 'users.realname as created_by_name', 'sl.created_at'])
        .orderBy('sl.id', 'desc').limit(size).offset((page - 1) * size).execute(),
    ]);
    const total = Number(n);
    return ok({ data, total, current_page: page, per_page: size, total_pages: Math.ceil(total / size) });
  });

  // A write (it puts labels on a slide) behind a GET, as spec §7 names it; recorded in the operation log by hand.
  app.get('/api/config/labels/auto_label/:id', {
    config: { ...perm },
    schema: { tags, params: Type.Object({ id: Id }), response: okResponse() },
  }, async (request) => {
    const slide = await db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id')
      .select(['slides.id', 'slides.hospital_id', 'slides.name', 'cases.specimen_name', 'cases.clinical_diagnosis'])
      .where('slides.id', '=', request.params.id).where('slides.hospital_id', 'in', hospitalScope({ scope: 'hospital' }, request)!)
      .executeTakeFirst();
    if (!slide) throw new AppError(404, 'slide.not_found');
    const labels = await db.selectFrom('labels').select(['id', 'name', 'en_name']).execute();
    const matched = matchLabels(labels, [slide.specimen_name, slide.clinical_diagnosis, slide.name]);
    const now = new Date().toISOString();
    const added = await db.transaction().execute(async (trx) => {
      const have = new Set((await trx.selectFrom('slide_labels').select('label_id').where('slide_id', '=', slide.id).execute()).map((r) => r.label_id));
      const fresh = matched.filter((id) => !have.has(id));
      if (fresh.length) {
        await trx.insertInto('slide_labels').values(fresh.map((label_id) => ({ hospital_id: slide.hospital_id, slide_id: slide.id, label_id, source: 'auto' as const, created_by: request.auth!.id, created_at: now }))).execute();
        await trx.insertInto('operation_logs').values({
          user_id: request.auth!.id, username: request.auth!.name ?? null, method: 'GET', path: request.url, route: '/api/config/labels/auto_label/:id',
          status_code: 200, payload: JSON.stringify({ slide_id: slide.id, labels: fresh }), ip: request.ip, created_at: now, hospital_id: slide.hospital_id,
        }).execute();
      }
      return fresh;
    });
    return ok({ slide_id: slide.id, matched, added });
  });

  app.delete('/api/config/labels/destroy/:id', {
    config: { ...perm },
    schema: { tags, params: Type.Object({ id: Id }), response: okResponse() },
  }, async (request) => {
    const done = await db.deleteFrom('labels').where('id', '=', request.params.id).executeTakeFirst();
    if (Number(done.numDeletedRows) === 0) throw new AppError(404, 'error.not_found');
    return ok({ id: request.params.id });
  });
}
