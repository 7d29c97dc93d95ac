import { caseDisplay, caseStages, caseStatusKey } from '../../../src/core/rulesCaseStatus.js';
import { caseFieldsFor, reportSnapshot, type ReportState } from '../../../src/core/reportWorkflow.js';
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

/**
 * Where one of the case's reports stands, as the case-status rules word a case at that report (to_audit, to_print,
 * sent …; a supplementary one's own steps): the case page lists each report with it.
 */
export const reportStage = <T extends ReportState & { id: number; supplement_type?: number | null }>(report: T, resolve: RuleResolver) =>
  ({ ...report, stage: caseStatusKey({ main_phase: 'diagnosis', ...caseFieldsFor(report), report: reportSnapshot(report) }, resolve) });
