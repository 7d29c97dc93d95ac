import { api, unwrap } from '../../api/client';
import { saveFileAnswer } from '../../api/saveFile';

export type StatKind = 'workload' | 'timeout' | 'rejected' | 'slides' | 'slide_views' | 'scanner' | 'scan_access' | 'income';

export interface StatQuery {
  period?: string;
  from?: string;
  to?: string;
  hospital_id?: number;
  doctor_id?: number;
  case_type?: string;
  hours?: number;
  utc_offset: number;
}

export type StatRow = { bucket: string } & Record<string, number | string>;
export interface StatAnswer {
  kind: StatKind;
  range: { from: string; to: string; bucket: 'day' | 'month' };
  series: string[];
  rows: StatRow[];
  totals: Record<string, number>;
  /** scan_access: the pass rate aimed at (spec §7 qc13). */
  target?: number;
}

/** Minutes east of UTC here: shift days are the hospital's local days (the browser stands in the hospital). */
export const localOffset = () => -new Date().getTimezoneOffset();

const clean = (q: StatQuery) => Object.fromEntries(Object.entries(q).filter(([, v]) => v !== undefined && v !== ''));

export const fetchStatistic = (kind: StatKind, q: StatQuery) => unwrap<StatAnswer>(api.get(`/statistic/${kind}`, { params: clean(q) }));

export const fetchDoctors = (hospitalId?: number) =>
  unwrap<{ id: number; name: string; realname: string | null }[]>(api.get('/statistic/doctors', { params: hospitalId ? { hospital_id: hospitalId } : {} }));

/** The .xlsx of the same query, saved under the server's file name (small: one row per day or month). */
export async function exportStatistic(kind: StatKind, q: StatQuery): Promise<void> {
  const res = await api.post(`/statistic/${kind}/export`, clean(q), { responseType: 'blob' });
  saveFileAnswer(res, `statistic-${kind}.xlsx`);
}
