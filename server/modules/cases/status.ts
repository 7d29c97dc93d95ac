import { caseDisplay } from '../../../src/core/rulesCaseStatus.js';
import type { RuleResolver } from '../../../src/core/rules.js';

const JSON_FIELDS = ['doctor_advice', 'special_check', 'cell_block_pathology', 'report_supplementary'];

/**
 * The data the case-status rules read: the case row with its list fields as lists (stored as JSON text) and its
 * latest report as `report`: the case's copy of that report's status fields (`latest_report`, written with every
 * report step, server/modules/diagnosis/queries.ts); null when the case has no report (spec §4 steps 3, 4 apply).
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

function latestReport(row: Record<string, unknown>): Record<string, unknown> | null {
  if (row.latest_report && typeof row.latest_report === 'object') return row.latest_report as Record<string, unknown>;
  if (typeof row.latest_report !== 'string' || !row.latest_report) return null;
  try {
    const r = JSON.parse(row.latest_report) as unknown;
    return r && typeof r === 'object' ? (r as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

/**
 * What a case shows of its state, by its hospital's case-status rules (the one evaluator of src/core/rules.ts):
 * `case_status` (the spec §4 status key; named so because `status` is a stored field the rule reads),
 * `markers`, `number_colour`, `status_colour`.
 */
export const withDisplay = <T extends Record<string, unknown>>(row: T, resolve: RuleResolver) => ({ ...row, ...renamed(caseDisplay(statusData(row), resolve)) });

const renamed = (d: ReturnType<typeof caseDisplay>) => ({ case_status: d.status, markers: d.markers, number_colour: d.number_colour, status_colour: d.status_colour });
