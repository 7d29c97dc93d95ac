import { QC_GRADES } from '../../../src/core/slideQc.js';
import { SCAN_RESULTS } from '../../../src/core/scannerStatus.js';

/**
 * What each statistic counts (issue 16, spec §2 workload / timeout / rejected-specimen statistics and the statistic
 * pages): one or more measures, each a count of rows of one table whose event time falls in the range, bucketed by
 * shift day or month. A measure either names its series (one column of the chart) or takes them from a column with
 * a fixed set of values. Tables, columns and values are fixed here; nothing of a request reaches SQL but bound values.
 */
export interface Measure {
  table: 'cases' | 'slides' | 'scan_jobs' | 'slide_qc' | 'case_specimens' | 'section_logs';
  /** The event time (ISO text) the range and the bucket read. */
  at: string;
  /** A fixed series name, or a column whose values (within `values`) are the series. */
  series: { name: string } | { column: string; values: readonly string[] };
  /** The user a doctor filter matches. */
  doctor?: string;
  /** Fixed conditions: column = value. */
  where?: Record<string, string>;
  /** Cases-only filters (case type) reach other tables through their case_id. */
  caseId?: string;
  /** Rows of a slide and no case_id (QC grades): the subspecialty directories reach them through the slide. */
  slideId?: string;
  /** Section logs carry no hospital: it comes from the slide. */
  hospitalVia?: { table: 'slides'; key: string };
}

export interface StatKind {
  /** The permission that reads it (the export also needs export_data_role). */
  permission: string;
  series: readonly string[];
  measures: Measure[];
}

export const STAT_KINDS = {
  // Workload: cases registered, sampled and signed out per shift day, each by its own time and doctor.
  workload: {
    permission: 'case_view',
    series: ['registered', 'sampled', 'signed'],
    measures: [
      { table: 'cases', at: 'registration_at', series: { name: 'registered' }, doctor: 'registration_doctor', caseId: 'id' },
      { table: 'cases', at: 'sample_at', series: { name: 'sampled' }, doctor: 'sample_doctor', caseId: 'id' },
      { table: 'cases', at: 'sign_at', series: { name: 'signed' }, doctor: 'doctor_id', caseId: 'id' },
    ],
  },
  // Rejected specimens beside those received, by the day each happened.
  rejected: {
    permission: 'case_view',
    series: ['received', 'rejected'],
    measures: [
      { table: 'case_specimens', at: 'receive_at', series: { name: 'received' }, doctor: 'receive_doctor', caseId: 'case_id' },
      { table: 'case_specimens', at: 'updated_at', series: { name: 'rejected' }, where: { status: 'rejected' }, doctor: 'receive_doctor', caseId: 'case_id' },
    ],
  },
  // SlideStatistics: slides that came in, by their state now.
  slides: {
    permission: 'slide_view',
    series: ['ready', 'needs_conversion', 'converting', 'error'],
    measures: [{ table: 'slides', at: 'created_at', series: { column: 'status', values: ['ready', 'needs_conversion', 'converting', 'error'] }, doctor: 'uploaded_by', caseId: 'case_id' }],
  },
  // SlideViewStatistics: slides opened in the viewer (the section log's `view` rows).
  slide_views: {
    permission: 'slide_view',
    series: ['views'],
    measures: [{ table: 'section_logs', at: 'created_at', series: { name: 'views' }, where: { action: 'view' }, doctor: 'user_id', caseId: 'case_id', hospitalVia: { table: 'slides', key: 'slide_id' } }],
  },
  // ScannerStatistics: scans by their result.
  scanner: {
    permission: 'scan_access',
    series: SCAN_RESULTS,
    measures: [{ table: 'scan_jobs', at: 'created_at', series: { column: 'result', values: SCAN_RESULTS }, caseId: 'case_id' }],
  },
  // ScanAccessStatistics: slides graded by QC, by grade (the pass rate is read from these).
  scan_access: {
    permission: 'scan_access',
    series: QC_GRADES,
    measures: [{ table: 'slide_qc', at: 'qc_at', series: { column: 'grade', values: QC_GRADES }, doctor: 'qc_by', slideId: 'slide_id' }],
  },
} satisfies Record<string, StatKind>;

export type StatKindName = keyof typeof STAT_KINDS;
export const STAT_KIND_NAMES = Object.keys(STAT_KINDS) as StatKindName[];
