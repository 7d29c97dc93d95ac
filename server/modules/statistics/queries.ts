import { sql } from 'kysely';
import { isPostgres, type Db } from '../../db/connect.js';
import { bucketBounds, bucketKeys, type StatRange } from '../../../src/core/statPeriods.js';
import { STAT_KINDS, type Measure, type StatKindName } from './kinds.js';

export interface StatFilters {
  hospitalId: number;
  doctorId?: number;
  caseType?: string;
  scannerId?: number;
  /** The hospital's offset from UTC in minutes (east positive): shift days are local. */
  utcOffset: number;
}

/*
 * Statistics are read by doctors and technicians, not only administrators: they count only the cases (and their
 * slides, scans, views) the asker may see, their subspecialty directories, by the row scope of every table measured.
 */

export interface StatTable {
  series: string[];
  rows: ({ bucket: string } & Record<string, number | string>)[];
  totals: Record<string, number>;
}

type Counted = { bucket: string; series: string; n: number | string };

/**
 * One measure: counts per (bucket, series) in SQL, only the groups coming back. Each bucket is its own range of the
 * indexed time column, the buckets one UNION ALL: the database counts index ranges instead of computing a date for
 * every row (a year of a million cases), and neither dialect's date arithmetic is needed. Bucket keys are generated
 * (YYYY-MM[-DD]) and written as literals, so PostgreSQL knows their type in the union.
 */
async function countMeasure(db: Db, m: Measure, range: StatRange, f: StatFilters): Promise<Counted[]> {
  // Tables and columns come from STAT_KINDS (a typed table union, column names), never from the request: the
  // measured table and its columns are dynamic references, every value a bound parameter.
  const col = (column: string) => db.dynamic.ref(`t.${column}`);
  const at = col(m.at);
  const { series } = m;
  const seriesExpr = 'name' in series ? sql<string>`${sql.lit(series.name)}` : sql<string>`${col(series.column)}`;
  const one = (b: { key: string; start: string; end: string }) => {
    const via = m.hospitalVia;
    let q = db.selectFrom(db.dynamic.table(m.table).as('t')).where(at, '>=', b.start).where(at, '<', b.end)
      .$if(via !== undefined, (qb) => qb.innerJoin(`${via!.table} as hv`, (j) => j.onRef('hv.id', '=', col(via!.key))).where('hv.hospital_id', '=', f.hospitalId))
      .$if(via === undefined, (qb) => qb.where(col('hospital_id'), '=', f.hospitalId));
    for (const [column, value] of Object.entries(m.where ?? {})) q = q.where(col(column), '=', value);
    if (!('name' in series)) q = q.where(col(series.column), 'in', [...series.values]);
    if (f.doctorId !== undefined) q = m.doctor ? q.where(col(m.doctor), '=', f.doctorId) : q.where(sql.lit(1), '=', 0);
    if (f.scannerId !== undefined && m.table === 'scan_jobs') q = q.where(col('scanner_id'), '=', f.scannerId);
    if (f.caseType !== undefined) {
      if (m.table === 'cases') q = q.where(col('case_type'), '=', f.caseType);
      else if (m.caseId) q = q.where(col(m.caseId), 'in', db.selectFrom('cases').select('id').where('hospital_id', '=', f.hospitalId).where('case_type', '=', f.caseType));
      else q = q.where(sql.lit(1), '=', 0);
    }
    const counted = q.select([sql<string>`${sql.lit(b.key)}`.as('bucket'), seriesExpr.as('series'), sql<number>`count(*)`.as('n')]);
    // A named series is a constant: PostgreSQL refuses a constant in GROUP BY, so only a column series is grouped.
    return 'name' in series ? counted : counted.groupBy(seriesExpr);
  };
  const [first, ...rest] = bucketBounds(range, f.utcOffset).map(one);
  return rest.reduce((u, q) => u.unionAll(q), first).execute();
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
 * outstanding) later than `hours` after registration. The duration is the database's date arithmetic; the buckets
 * are ranges of registration_at in one UNION ALL, as above.
 */
export async function timeoutStatistic(db: Db, range: StatRange, f: StatFilters & { hours: number; now: Date }): Promise<StatTable> {
  const cutoff = new Date(f.now.getTime() - f.hours * 3_600_000).toISOString();
  const late = isPostgres(db)
    ? sql<boolean>`cast(sign_at as timestamp) - cast(registration_at as timestamp) > make_interval(hours => ${sql.lit(f.hours)})`
    : sql<boolean>`julianday(sign_at) - julianday(registration_at) > ${sql.lit(f.hours / 24)}`;
  const timedOut = sql<number>`sum(case when (sign_at is null and registration_at < ${cutoff}) or (sign_at is not null and ${late}) then 1 else 0 end)`;
  const one = (b: { key: string; start: string; end: string }) => db.selectFrom('cases')
    .where('hospital_id', '=', f.hospitalId).where('registration_at', '>=', b.start).where('registration_at', '<', b.end)
    .$if(f.doctorId !== undefined, (q) => q.where('doctor_id', '=', f.doctorId!))
    .$if(f.caseType !== undefined, (q) => q.where('case_type', '=', f.caseType!))
    .select([sql<string>`${sql.lit(b.key)}`.as('bucket'), sql<number>`count(*)`.as('registered'), timedOut.as('timed_out')]);
  const [first, ...rest] = bucketBounds(range, f.utcOffset).map(one);
  const rows = await rest.reduce((u, q) => u.unionAll(q), first).execute();
  const counted: Counted[] = rows.flatMap((r) => [
    { bucket: r.bucket, series: 'registered', n: r.registered },
    { bucket: r.bucket, series: 'timed_out', n: r.timed_out ?? 0 },
  ]);
  return tabulate(['registered', 'timed_out'], range, counted);
}
