import { evaluateNamed, type RuleResolver, type Warn } from './rules.js';

/** The rule of schemas/rules/case-status.json that names a case's displayed status (spec §4). */
export const CASE_STATUS_RULE = 'case-status.status';

/**
 * The status key a case shows, from the case row (with its latest report as `report`): the same
 * evaluation on the server (filters, counts) and in the browser (display). A missing or failing rule,
 * or a result that is not text, gives '' (spec §5: an unusable rule falls back to empty).
 * A supplementary report's sub-phase comes back as `supplementary_<sub_phase>` (displayed with the prefix).
 */
export function caseStatusKey(row: Record<string, unknown>, resolve: RuleResolver, warn?: Warn): string {
  const key = evaluateNamed(CASE_STATUS_RULE, row, { resolve, fallback: '', warn });
  return typeof key === 'string' || typeof key === 'number' ? String(key) : '';
}

/** Spec §4 marker icons (expedite, technical_advice, special_check, supplementary, stain_report, ihc_report), in display order. */
export function caseMarkers(row: Record<string, unknown>, resolve: RuleResolver, warn?: Warn): string[] {
  const markers = evaluateNamed('case-status.markers', row, { resolve, fallback: [], warn });
  return Array.isArray(markers) ? markers.filter((m): m is string => typeof m === 'string') : [];
}

/**
 * The stage words a case is at (spec §4 list-progress filters and stage words: done / not_done, finish, undo /
 * doing, to_first … sent, rollback, urgent); a case is at several at once. Time-based words (timeout,
 * has_timeout) need the clock, which json-logic has not: the stuck-case search answers them (MissCaseSearch).
 */
export function caseStages(row: Record<string, unknown>, resolve: RuleResolver, warn?: Warn): string[] {
  const stages = evaluateNamed('case-status.stages', row, { resolve, fallback: [], warn });
  return Array.isArray(stages) ? [...new Set(stages.filter((m): m is string => typeof m === 'string' && m !== ''))] : [];
}

/** The pathology number's colour (a palette name: red, marigold, blue, purple, cranberry, green, grey): sub_phase, else main_phase. */
export function caseNumberColour(row: Record<string, unknown>, resolve: RuleResolver, warn?: Warn): string {
  const colour = evaluateNamed('case-status.number-colour', row, { resolve, fallback: 'grey', warn });
  return typeof colour === 'string' && colour ? colour : 'grey';
}

/** The status box's colour; spec §4: gold unless a hospital's rule says otherwise. */
export function caseStatusColour(row: Record<string, unknown>, resolve: RuleResolver, warn?: Warn): string {
  const colour = evaluateNamed('case-status.status-colour', row, { resolve, fallback: 'gold', warn });
  return typeof colour === 'string' && colour ? colour : 'gold';
}

/** Everything the case list shows of a case's state, evaluated once per row. */
export function caseDisplay(row: Record<string, unknown>, resolve: RuleResolver, warn?: Warn) {
  return {
    status: caseStatusKey(row, resolve, warn),
    markers: caseMarkers(row, resolve, warn),
    number_colour: caseNumberColour(row, resolve, warn),
    status_colour: caseStatusColour(row, resolve, warn),
  };
}
