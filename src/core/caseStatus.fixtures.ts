/**
 * Spec §4 "case status display, in order" as cases, in the spec's words: what a case row holds and the status
 * key it must show. The unit test runs them through the rule file; the API test stores them as cases and reads
 * them back through the server (lists, tab counts, status filter). Only the fields of the case itself: the
 * latest-report branch (step 2) needs reports, which the server does not store yet (see status.ts).
 */
export interface StatusCase { spec: string; row: Record<string, unknown>; status: string }

const base = { main_phase: 'diagnosis', sub_phase: 'to_first', status: 'doing', archive_status: 'not_filed', print_deliver_status: 0, report_status: null };

export const CASE_STATUS_CASES: StatusCase[] = [
  { spec: '1. archive_status = filed: Filed', row: { ...base, archive_status: 'filed', print_deliver_status: 1, report_status: 'signed' }, status: 'filed' },
  { spec: '3. no report but report_status: print_deliver_status 1 To print', row: { ...base, report_status: 'signed', print_deliver_status: 1 }, status: 'to_print' },
  { spec: '3. … 2 To send', row: { ...base, report_status: 'signed', print_deliver_status: 2 }, status: 'to_send' },
  { spec: '3. … 3 Sent', row: { ...base, report_status: 'signed', print_deliver_status: 3 }, status: 'sent' },
  { spec: '3. … otherwise report_status', row: { ...base, report_status: 'signed', print_deliver_status: 0 }, status: 'signed' },
  { spec: '4. otherwise: print_deliver_status 1 To print', row: { ...base, print_deliver_status: 1 }, status: 'to_print' },
  { spec: '4. … 2 To send', row: { ...base, print_deliver_status: 2 }, status: 'to_send' },
  { spec: '4. … 3 Sent', row: { ...base, print_deliver_status: 3 }, status: 'sent' },
  { spec: '4. any other value gives sub_phase', row: { ...base, print_deliver_status: 0 }, status: 'to_first' },
  { spec: '4. … status', row: { ...base, sub_phase: null }, status: 'doing' },
  { spec: '4. … main_phase', row: { ...base, sub_phase: null, status: null }, status: 'diagnosis' },
];
