import { Type, type Static } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { hasPermission } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import { AppError, forbidden } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { statRange, STAT_PERIODS, type StatRange } from '../../../src/core/statPeriods.js';
import { getSetting } from '../settings/queries.js';
import { usersOfHospital } from '../users/queries.js';
import { dashboard } from './dashboard.js';
import { statisticBook } from './export.js';
import { STAT_KINDS, STAT_KIND_NAMES, type StatKindName } from './kinds.js';
import { incomeStatistic } from './income.js';
import { statistic, timeoutStatistic, type StatTable } from './queries.js';
import { binaryResponse, okResponse, XLSX } from '../../http/responses.js';

const Kind = Type.Union([...STAT_KIND_NAMES, 'timeout', 'income'].map((k) => Type.Literal(k)));
type KindName = StatKindName | 'timeout' | 'income';
const Id = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 });
/** Every field bounded; the period and dates are read by statRange, whose refusals are translated 422s. */
const Query = Type.Object({
  period: Type.Optional(Type.String({ maxLength: 32 })),
  from: Type.Optional(Type.String({ maxLength: 10 })),
  to: Type.Optional(Type.String({ maxLength: 10 })),
  bucket: Type.Optional(Type.String({ maxLength: 8 })),
  hospital_id: Type.Optional(Id),
  doctor_id: Type.Optional(Id),
  scanner_id: Type.Optional(Id),
  case_type: Type.Optional(Type.String({ minLength: 1, maxLength: 16, pattern: '^[a-z_]+$' })),
  /** Minutes east of UTC (the browser's), for local shift days; default 0. */
  utc_offset: Type.Optional(Type.Integer({ minimum: -720, maximum: 840 })),
  /** Timeout statistics: hours from registration to report. */
  hours: Type.Optional(Type.Integer({ minimum: 1, maximum: 720 })),
}, { additionalProperties: false });
type StatQuery = Static<typeof Query>;
const tags = ['statistics'];
/** Spec §4 report timeout when none is asked: three days from registration. */
const DEFAULT_TIMEOUT_HOURS = 72;
const DEFAULT_PASS_RATE = 95;

const permissionOf = (kind: KindName) => (kind === 'timeout' ? 'case_view' : kind === 'income' ? 'income_view' : STAT_KINDS[kind].permission);

/**
 * Statistics (issue 16, spec §2, §9): GET /api/statistic/{kind} answers counts per shift day (or month) of a period
 * for one hospital of the user's, filtered by doctor, case type or scanner; POST …/export the same as .xlsx (needs
 * export_data_role as well, and is in the operation log as a POST). The pass-rate target is spec §7's qc13 config.
 */
export function statisticRoutes(app: TypedApp, db: Db): void {
  const read = async (request: FastifyRequest, kind: KindName, q: StatQuery): Promise<{ range: StatRange; table: StatTable }> => {
    const user = request.auth!;
    if (!hasPermission(user, permissionOf(kind))) throw forbidden(permissionOf(kind));
    const hospitalId = q.hospital_id ?? workingHospital(request);
    if (!user.hospitalIds.includes(hospitalId)) throw new AppError(403, 'stat.bad_hospital');
    const now = new Date();
    const utcOffset = q.utc_offset ?? 0;
    const range = statRange({ period: q.period, from: q.from, to: q.to, bucket: q.bucket, utcOffset }, now);
    if (typeof range === 'string') throw new AppError(422, range, { periods: STAT_PERIODS.join(', ') });
    const filters = { hospitalId, doctorId: q.doctor_id, caseType: q.case_type, scannerId: q.scanner_id, utcOffset };
    const table = kind === 'timeout'
      ? await timeoutStatistic(db, range, { ...filters, hours: q.hours ?? DEFAULT_TIMEOUT_HOURS, now })
      : kind === 'income' ? await incomeStatistic(db, range, filters) : await statistic(db, kind, range, filters);
    return { range, table };
  };
  const passRateTarget = async () => {
    const row = await getSetting(db, 'statistic_pass_rate');
    const value = row ? Number((JSON.parse(row.value) as { qc13?: unknown }).qc13) : NaN;
    return Number.isFinite(value) && value >= 0 && value <= 100 ? value : DEFAULT_PASS_RATE;
  };

  // Spec §7: the reader takes data.data.qc13, the pass rate (%) the scan quality aims at.
  app.get('/api/statistic/statistic_pass_rate_config/qc13', {
    config: { access: { permission: 'scan_access' }, audit: false },
    schema: { tags, response: okResponse() },
  }, async () => ok({ data: { qc13: await passRateTarget() } }));

  // The Dashboard's tiles: what the user may see of the working hospital, counted now.
  app.get('/api/statistic/dashboard', {
    config: { access: 'user', audit: false },
    schema: { tags, querystring: Type.Object({ utc_offset: Type.Optional(Type.Integer({ minimum: -720, maximum: 840 })) }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const user = request.auth!;
    return ok(await dashboard(db, {
      hospitalId: workingHospital(request), userId: user.id, utcOffset: request.query.utc_offset ?? 0, now: new Date(),
      can: (p) => hasPermission(user, p),
    }));
  });

  // The doctor filter's choices: the users of a hospital the asker may read statistics of.
  app.get('/api/statistic/doctors', {
    config: { access: 'user', audit: false },
    schema: { tags, querystring: Type.Object({ hospital_id: Type.Optional(Id) }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const user = request.auth!;
    const anyKind = ['case_view', 'slide_view', 'scan_access', 'income_view'].find((p) => hasPermission(user, p));
    if (!anyKind) throw forbidden('case_view');
    const hospitalId = request.query.hospital_id ?? workingHospital(request);
    if (!user.hospitalIds.includes(hospitalId)) throw new AppError(403, 'stat.bad_hospital');
    return ok(await usersOfHospital(db, hospitalId));
  });

  app.get('/api/statistic/:kind', {
    config: { access: 'user', audit: false },
    schema: { tags, params: Type.Object({ kind: Kind }), querystring: Query, response: okResponse() },
  }, async (request) => {
    const kind = request.params.kind as KindName;
    const { range, table } = await read(request, kind, request.query);
    return ok({
      kind, range: { from: range.from, to: range.to, bucket: range.bucket, start: range.start, end: range.end },
      ...table, ...(kind === 'scan_access' ? { target: await passRateTarget() } : {}),
    });
  });

  app.post('/api/statistic/:kind/export', {
    config: { access: { permission: 'export_data_role' } },
    schema: { tags, params: Type.Object({ kind: Kind }), body: Query, response: binaryResponse(XLSX) },
  }, async (request, reply) => {
    const kind = request.params.kind as KindName;
    const { range, table } = await read(request, kind, request.body);
    const file = await statisticBook(table, request.lang, kind === 'scan_access', kind === 'income');
    return reply.type('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet')
      .header('content-disposition', `attachment; filename="statistic-${kind}-${range.from}-${range.to}.xlsx"`).send(file);
  });
}
