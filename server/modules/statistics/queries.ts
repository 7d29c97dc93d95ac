import { sql, type RawBuilder } from 'kysely';
import { isPostgres, type Db } from '../../db/connect.js';
import { bucketKeys, SHIFT_DAY_START_HOUR, type StatRange } from '../../../src/core/statPeriods.js';
import { STAT_KINDS, type Measure, type StatKindName } from './kinds.js';

export interface StatFilters {
  hospitalId: number;
  doctorId?: number;
  caseType?: string;
  scannerId?: number;
  /** The hospital's offset from UTC in minutes (east positive): shift days are local. */
  utcOffset: number;
}

export interface StatTable {
  series: string[];
  rows: ({ bucket: string } & Record<string, number | string>)[];
  totals: Record<string, number>;
}

/**
 * The bucket of an ISO instant: its local shift day (or month). The minutes are a validated integer, written as a
 * literal so that the same expression can be grouped by on PostgreSQL (a bound parameter would be two expressions).
 */
export function bucketSql(db: Db, column: RawBuilder<unknown>, range: Pick<StatRange, 'bucket'>, utcOffset: number): RawBuilder<string> {
  const minutes = Math.trunc(utcOffset) - SHIFT_DAY_START_HOUR * 60;
  if (isPostgres(db)) {
    return sql<string>`to_char(cast(${column} as timestamp) + make_interval(mins => ${sql.lit(minutes)}), ${sql.lit(range.bucket === 'day' ? 'YYYY-MM-DD' : 'YYYY-MM')})`;
  }
  return sql<string>`strftime(${sql.lit(range.bucket === 'day' ? '%Y-%m-%d' : '%Y-%m')}, ${column}, ${sql.lit(`${minutes >= 0 ? '+' : ''}${minutes} minutes`)})`;
}

type Counted = { bucket: string; series: string; n: number | string };

/** One measure: counts per (bucket, series) in SQL; only the groups come back. */
async function countMeasure(db: Db, m: Measure, range: StatRange, f: StatFilters): Promise<Counted[]> {
  const t = 't';
  const at = sql.ref(`${t}.${m.at}`);
  const bucket = bucketSql(db, at, range, f.utcOffset);
  const seriesExpr = 'name' in m.series ? sql<string>`${sql.lit(m.series.name)}` : sql<string>`${sql.ref(`${t}.${m.series.column}`)}`;
  // Tables and columns come from STAT_KINDS, never from the request.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  let q = (db as any).selectFrom(`${m.table} as ${t}`)
    .where(at, '>=', range.start).where(at, '<', range.end);
  if (m.hospitalVia) {
    q = q.innerJoin(`${m.hospitalVia.table} as hv`, 'hv.id', `${t}.${m.hospitalVia.key}`).where('hv.hospital_id', '=', f.hospitalId);
  } else {
    q = q.where(`${t}.hospital_id`, '=', f.hospitalId);
  }
  for (const [column, value] of Object.entries(m.where ?? {})) q = q.where(`${t}.${column}`, '=', value);
  if (!('name' in m.series)) q = q.where(`${t}.${m.series.column}`, 'in', [...m.series.values]);
  if (f.doctorId !== undefined) q = m.doctor ? q.where(`${t}.${m.doctor}`, '=', f.doctorId) : q.where(sql.lit(1), '=', 0);
  if (f.scannerId !== undefined) q = m.table === 'scan_jobs' ? q.where(`${t}.scanner_id`, '=', f.scannerId) : q;
  if (f.caseType !== undefined) {
    if (m.table === 'cases') q = q.where(`${t}.case_type`, '=', f.caseType);
    else if (m.caseId) q = q.where(`${t}.${m.caseId}`, 'in', db.selectFrom('cases').select('id').where('hospital_id', '=', f.hospitalId).where('case_type', '=', f.caseType));
    else q = q.where(sql.lit(1), '=', 0);
  }
  // A named series is a constant: PostgreSQL refuses a constant in GROUP BY, so only a column series is grouped.
  return q.select([bucket.as('bucket'), seriesExpr.as('series'), sql<number>`count(*)`.as('n')])
    .groupBy('name' in m.series ? [bucket] : [bucket, seriesExpr]).execute();
}

/** Counts per bucket in a table with every bucket of the range (empty ones as zero) and the period's totals. */
export function tabulate(series: readonly string[], range: StatRange, counted: Counted[]): StatTable {
  const rows = bucketKeys(range).map((bucket) => ({ bucket, ...Object.fromEntries(series.map((s) => [s, 0])) } as StatTable['rows'][number]));
  const index = new Map(rows.map((r, i) => [r.bucket, i]));
  const totals: Record<string, number> = Object.fromEntries(series.map((s) => [s, 0]));
  for (const c of counted) {
    const i = index.get(c.bucket);
    if (i === undefined || !(c.series in totals)) continue;
    const n = Number(c.n);
    rows[i][c.series] = Number(rows[i][c.series]) + n;
    totals[c.series] += n;
  }
  return { series: [...series], rows, totals };
}

export async function statistic(db: Db, kind: StatKindName, range: StatRange, f: StatFilters): Promise<StatTable> {
  const def = STAT_KINDS[kind];
  const counted = (await Promise.all(def.measures.map((m) => countMeasure(db, m as Measure, range, f)))).flat();
  return tabulate(def.series, range, counted);
}

/**
 * Timeout statistics: of the cases registered in each bucket, those whose report came (or, unsigned, is still
 * outstanding) later than `hours` after registration. The duration is the database's date arithmetic.
 */
export async function timeoutStatistic(db: Db, range: StatRange, f: StatFilters & { hours: number; now: Date }): Promise<StatTable> {
  const bucket = bucketSql(db, sql.ref('registration_at'), range, f.utcOffset);
  const cutoff = new Date(f.now.getTime() - f.hours * 3_600_000).toISOString();
  const late = isPostgres(db)
    ? sql<boolean>`cast(sign_at as timestamp) - cast(registration_at as timestamp) > make_interval(hours => ${sql.lit(f.hours)})`
    : sql<boolean>`julianday(sign_at) - julianday(registration_at) > ${sql.lit(f.hours / 24)}`;
  const timedOut = sql<number>`sum(case when (sign_at is null and registration_at < ${cutoff}) or (sign_at is not null and ${late}) then 1 else 0 end)`;
  const rows = await db.selectFrom('cases')
    .where('hospital_id', '=', f.hospitalId).where('registration_at', '>=', range.start).where('registration_at', '<', range.end)
    .$if(f.doctorId !== undefined, (q) => q.where('doctor_id', '=', f.doctorId!))
    .$if(f.caseType !== undefined, (q) => q.where('case_type', '=', f.caseType!))
    .select([bucket.as('bucket'), sql<number>`count(*)`.as('registered'), timedOut.as('timed_out')])
    .groupBy(bucket).execute();
  const counted: Counted[] = rows.flatMap((r) => [
    { bucket: r.bucket, series: 'registered', n: r.registered },
    { bucket: r.bucket, series: 'timed_out', n: r.timed_out ?? 0 },
  ]);
  return tabulate(['registered', 'timed_out'], range, counted);
}
