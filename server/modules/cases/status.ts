import { caseDisplay } from '../../../src/core/rulesCaseStatus.js';
import type { RuleResolver } from '../../../src/core/rules.js';

const JSON_FIELDS = ['doctor_advice', 'special_check', 'cell_block_pathology', 'report_supplementary'];

/**
 * The data the case-status rules read: the case row with its list fields as lists (stored as JSON text) and its
 * latest report as `report`. Reports are not stored yet (the diagnosis work adds them); until then `report` is
 * null and rule step 2 of spec §4 never applies, the case's own report_status / print_deliver_status do.
 */
export function statusData(row: Record<string, unknown>, report: Record<string, unknown> | null = null): Record<string, unknown> {
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

/**
 * What a case shows of its state, by its hospital's case-status rules (the one evaluator of src/core/rules.ts):
 * `case_status` (the spec §4 status key; named so because `status` is a stored field the rule reads),
 * `markers`, `number_colour`, `status_colour`.
 */
export const withDisplay = <T extends Record<string, unknown>>(row: T, resolve: RuleResolver) => ({ ...row, ...renamed(caseDisplay(statusData(row), resolve)) });

const renamed = (d: ReturnType<typeof caseDisplay>) => ({ case_status: d.status, markers: d.markers, number_colour: d.number_colour, status_colour: d.status_colour });
