import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { bucketBounds, type StatRange } from '../../../src/core/statPeriods.js';
import { PRICE_KINDS } from '../../../src/core/prices.js';
import { tabulate, type StatFilters, type StatTable } from './queries.js';

export const INCOME_SERIES = ['income_case', 'income_special', 'income_additional', 'income_total'] as const;

/**
 * Income statistics (spec §2): the charges captured when cases were registered and orders given (case_charges,
 * prices of that moment), summed per bucket and kind in SQL — each bucket a range of the indexed charged_at, the
 * buckets one UNION ALL, as the counts are. Sums are integer cents; the answer is yuan, divided once per cell.
 * The doctor filter is who charged (registered the case, gave the order); case type and the asker's subspecialty
 * directories (the row scope) reach charges through the case.
 */
export async function incomeStatistic(db: Db, range: StatRange, f: StatFilters): Promise<StatTable> {
  const one = (b: { key: string; start: string; end: string }) => db.selectFrom('case_charges as c')
    .where('c.hospital_id', '=', f.hospitalId).where('c.charged_at', '>=', b.start).where('c.charged_at', '<', b.end)
    .$if(f.doctorId !== undefined, (q) => q.where('c.charged_by', '=', f.doctorId!))
    .$if(f.caseType !== undefined, (q) => q.where('c.case_id', 'in',
      db.selectFrom('cases').select('id').where('hospital_id', '=', f.hospitalId).where('case_type', '=', f.caseType!)))
    .select([sql<string>`${sql.lit(b.key)}`.as('bucket'), 'c.kind', sql<number | string>`sum(c.amount_cents)`.as('cents')])
    .groupBy('c.kind');
  const [first, ...rest] = bucketBounds(range, f.utcOffset).map(one);
  const rows = await rest.reduce((u, q) => u.unionAll(q), first).execute();
  const counted = rows.flatMap((r) => (PRICE_KINDS as readonly string[]).includes(r.kind)
    ? [{ bucket: r.bucket, series: `income_${r.kind}`, n: r.cents }, { bucket: r.bucket, series: 'income_total', n: r.cents }]
    : []);
  const cents = tabulate(INCOME_SERIES, range, counted);
  const toYuan = (v: number | string) => (typeof v === 'number' ? Math.round(v) / 100 : v);
  return {
    series: cents.series,
    rows: cents.rows.map((r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, k === 'bucket' ? v : toYuan(v)])) as StatTable['rows'][number]),
    totals: Object.fromEntries(Object.entries(cents.totals).map(([k, v]) => [k, Math.round(v) / 100])),
  };
}
