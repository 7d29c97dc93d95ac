/**
 * The tables of row-level access (issue 27): cases, slides and what hangs off them, and the operation log. Every statement the
 * request-scoped handle runs over one of these is narrowed to the request's hospitals and subspecialty directories
 * (server/db/row-scope.ts); a table named here needs nothing more from the code that reads or writes it.
 *
 * - `hospital`: the row's own hospital column. Absent: the row's hospital is its slide's (`slideKey`).
 * - `directory`: cases only, the directory a case is filed under (null: everyone's, src/core/subspecialty.ts).
 * - `caseKey`: the row's case; a row of no case (null) is everyone's in its hospital.
 * - `slideKey`: the row's slide; its directory is the slide's case's (slides of no case are everyone's).
 * - `slideOptional`: the row may name no slide (null): it is then its hospital's, or, without a hospital column,
 *   everyone's (a log line of a slide since deleted).
 * - `hospitalOptional`: the row may name no hospital (null): it is then administrators' only, never everyone's (an
 *   operation log line of a signed-out request, or one written before the log recorded hospitals).
 * - `sharedWith`: a column naming a second hospital the row is also reached from (a transport's receiving hospital):
 *   reads and updates reach the row from either hospital; an insert must still name a hospital of the scope as the
 *   row's own. The resource layer reads it too: a shared row's receiver reads it and takes its steps, only the owner
 *   edits or deletes it (server/resources/queries.ts).
 * - `clinicalReports`: the reports table: a clinician's scope reaches only the signed, sent reports of the cases
 *   within their reach (clinical-reach.ts).
 * - `clinicalApplications`: the applications table: a clinician's scope reaches only the applications within their
 *   reach (their own; their departments' or their hospital's as the hospital's rule says; clinical-reach.ts).
 */
export interface ScopedTable {
  hospital?: string;
  directory?: string;
  caseKey?: string;
  slideKey?: string;
  slideOptional?: boolean;
  hospitalOptional?: boolean;
  sharedWith?: string;
  clinicalReports?: boolean;
  clinicalApplications?: boolean;
}

export const SCOPED_TABLES: Readonly<Record<string, ScopedTable>> = {
  cases: { hospital: 'hospital_id', directory: 'subspecialty_id' },
  case_applications: { hospital: 'hospital_id', caseKey: 'case_id', clinicalApplications: true },
  case_specimens: { hospital: 'hospital_id', caseKey: 'case_id' },
  case_blocks: { hospital: 'hospital_id', caseKey: 'case_id' },
  technical_orders: { hospital: 'hospital_id', caseKey: 'case_id' },
  case_timeline: { hospital: 'hospital_id', caseKey: 'case_id' },
  case_images: { hospital: 'hospital_id', caseKey: 'case_id' },
  case_charges: { hospital: 'hospital_id', caseKey: 'case_id' },
  reports: { hospital: 'hospital_id', caseKey: 'case_id', clinicalReports: true },
  // A signed report's frozen documents: read only through a report already in scope (reportVisible); narrowed by hospital here too.
  report_documents: { hospital: 'hospital_id' },
  slides: { hospital: 'hospital_id', caseKey: 'case_id' },
  slide_sections: { hospital: 'hospital_id', caseKey: 'case_id' },
  scan_jobs: { hospital: 'hospital_id', caseKey: 'case_id', slideKey: 'slide_id', slideOptional: true },
  slide_annotations: { hospital: 'hospital_id', slideKey: 'slide_id' },
  slide_shares: { hospital: 'hospital_id', slideKey: 'slide_id' },
  slide_labels: { hospital: 'hospital_id', slideKey: 'slide_id' },
  slide_qc: { hospital: 'hospital_id', slideKey: 'slide_id' },
  teaching_links: { hospital: 'hospital_id', slideKey: 'slide_id' },
  slide_focus: { slideKey: 'slide_id' },
  collections: { slideKey: 'slide_id' },
  meeting_slides: { slideKey: 'slide_id' },
  section_logs: { caseKey: 'case_id', slideKey: 'slide_id', slideOptional: true },
  // Messages are their recipient's; one about a case outside the reader's directories is not shown (spec §6).
  messages: { caseKey: 'case_id' },
  // The audit trail of writes, with the bodies they sent (a file's name, a patient's name): the hospital worked in.
  operation_logs: { hospital: 'hospital_id', hospitalOptional: true },
  // The HL7 message log carries patients' names and orders: its hospital's; one that named none, administrators'.
  hl7_messages: { hospital: 'hospital_id', hospitalOptional: true },
  hl7_patients: { hospital: 'hospital_id' },
  // The department's archive and borrow orders (schemas/resources/archive_items.json, borrow_orders.json): their hospital's.
  archive_items: { hospital: 'hospital_id' },
  borrow_orders: { hospital: 'hospital_id' },
  // Attendance and duty rosters (schemas/resources/attendance_*.json, duty_*.json): their hospital's.
  attendance_groups: { hospital: 'hospital_id' },
  attendance_members: { hospital: 'hospital_id' },
  attendance_shifts: { hospital: 'hospital_id' },
  duty_rosters: { hospital: 'hospital_id' },
  duty_entries: { hospital: 'hospital_id' },
  // Specimen transports between hospitals of the group: the sender's and the receiver's (logistics_orders.json).
  logistics_orders: { hospital: 'hospital_id', sharedWith: 'to_hospital_id' },
  report_deliveries: { hospital: 'hospital_id' },
  // Follow-ups hang off a case: its hospital's, and within the reader's subspecialty directories like the case.
  follow_ups: { hospital: 'hospital_id', caseKey: 'case_id' },
  // Consultations on a case (schemas/resources/consultations.json): its hospital's, within the case's directory.
  consultations: { hospital: 'hospital_id', caseKey: 'case_id' },
  // Assets and consumables (schemas/resources/assets.json … stock_orders.json): their hospital's; a batch's stock moves
  // only through its hospital's stock orders (server/resources/ledger.ts), and a consumable's stock sums its own batches.
  assets: { hospital: 'hospital_id' },
  warehouses: { hospital: 'hospital_id' },
  consumables: { hospital: 'hospital_id' },
  consumable_batches: { hospital: 'hospital_id' },
  stock_orders: { hospital: 'hospital_id' },
  // Teaching and exams (schemas/resources/teaching_slides.json, exams.json …; server/modules/exams): their hospital's.
  teaching_slides: { hospital: 'hospital_id', slideKey: 'slide_id' },
  exams: { hospital: 'hospital_id' },
  exam_questions: { hospital: 'hospital_id' },
  exam_attempts: { hospital: 'hospital_id' },
  exam_answers: { hospital: 'hospital_id' },
};
