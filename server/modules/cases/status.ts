import { caseDisplay, caseStages } from '../../../src/core/rulesCaseStatus.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import { statusData } from '../../../src/core/caseStatusData.js';

// The data the rules read is built in src/core, so the designer's rule test panel reads a case as the server does.
export { statusData };

/**
 * What a case shows of its state, by its hospital's case-status rules (the one evaluator of src/core/rules.ts):
 * `case_status` (the spec §4 status key; named so because `status` is a stored field the rule reads),
 * `markers`, `number_colour`, `status_colour`, and `case_stages` (the stage words it is at; CaseList's progress filter).
 */
export const withDisplay = <T extends Record<string, unknown>>(row: T, resolve: RuleResolver) => {
  const data = statusData(row);
  return { ...row, ...renamed(caseDisplay(data, resolve)), case_stages: caseStages(data, resolve) };
};

const renamed = (d: ReturnType<typeof caseDisplay>) => ({ case_status: d.status, markers: d.markers, number_colour: d.number_colour, status_colour: d.status_colour });
