const JSON_FIELDS = ['doctor_advice', 'special_check', 'cell_block_pathology', 'report_supplementary'];

/**
 * The data the case-status rules read: the case row with its list fields as lists (stored as JSON text) and its
 * latest report as `report`: the case's copy of that report's status fields (`latest_report`, written with every
 * report step, server/modules/diagnosis/queries.ts); null when the case has no report (spec §4 steps 3, 4 apply).
 * Shared by the server and the designer's rule test panel, so a case is read the same way by both.
 */
export function statusData(row: Record<string, unknown>, report: Record<string, unknown> | null = latestReport(row)): Record<string, unknown> {
  const data: Record<string, unknown> = { ...row, report };
  for (const f of JSON_FIELDS) {
    const v = data[f];
    if (typeof v === 'string') {
      try {
        data[f] = JSON.parse(v);
      } catch {
        data[f] = [];
      }
    }
  }
  return data;
}

/** The case's copy of its latest report (an object, or JSON text as SQLite keeps it); null when none. */
export function latestReport(row: Record<string, unknown>): Record<string, unknown> | null {
  if (row.latest_report && typeof row.latest_report === 'object') return row.latest_report as Record<string, unknown>;
  if (typeof row.latest_report !== 'string' || !row.latest_report) return null;
  try {
    const r = JSON.parse(row.latest_report) as unknown;
    return r && typeof r === 'object' ? (r as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}
