import type { Generated } from 'kysely';

/** Tables of migration 0019_reports (issue 15). Times are ISO-8601 UTC strings; JSON is text. */
export interface ReportTable {
  id: Generated<number>;
  hospital_id: number;
  case_id: number;
  /** 1 the case's report, 2 a supplementary report (spec §3). */
  report_type: number;
  /** Supplementary reports: 1 immunohistochemistry, 2 special stain, 0 plain. */
  supplement_type: number | null;
  /** to_first, to_audit, to_sign, to_issue, signed; supplementary: draft, new, accept, reject. */
  sub_phase: string;
  is_draft: number;
  release_status: string;
  gross_description: string | null;
  microscopic: string | null;
  diagnosis: string | null;
  advice: string | null;
  postscript: string | null;
  images: string | null;
  first_doctor: number | null;
  first_at: string | null;
  audit_doctor: number | null;
  audit_at: string | null;
  sign_doctor: number | null;
  sign_at: string | null;
  return_reason: string | null;
  returned_count: Generated<number>;
  issue_at: string | null;
  print_at: string | null;
  deliver_at: string | null;
  delayed: Generated<number>;
  delay_reason: string | null;
  delay_at: string | null;
  delay_doctor: number | null;
  delay_status: string | null;
  follow_up: string | null;
  evaluation: Generated<string>;
  verify_code: string | null;
  verify_hash: string | null;
  version: Generated<number>;
  created_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface DiagnosisTemplateTable {
  id: Generated<number>;
  hospital_id: number;
  parent_id: number | null;
  name: string;
  gross_description: string | null;
  microscopic: string | null;
  diagnosis: string | null;
  advice: string | null;
  rank: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface DiagnosisPhraseTable {
  id: Generated<number>;
  hospital_id: number;
  category: string | null;
  text: string;
  rank: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface ReportTemplateTable {
  id: Generated<number>;
  hospital_id: number;
  template_name: string;
  type: string;
  sub_type: string | null;
  is_word_template: number;
  layout: string | null;
  /** The .docx, base64. */
  word_file: string | null;
  word_file_name: string | null;
  key_words_list: string | null;
  is_default: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface ReportKeyTable {
  id: Generated<number>;
  hospital_id: number;
  key: string;
  label: string;
  source: string;
  created_at: string;
  updated_at: string;
}

export interface ReportStructTable {
  id: Generated<number>;
  hospital_id: number;
  name: string;
  field: string;
  type: string;
  rank: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface DictRuleTable {
  id: Generated<number>;
  hospital_id: number;
  type: string;
  result: string | null;
  rules: string | null;
  created_at: string;
  updated_at: string;
}

/** A signed report as issued (migration 0039_report_documents, issue 27): what was signed, fixed. */
export interface ReportDocumentTable {
  id: Generated<number>;
  hospital_id: number;
  report_id: number;
  /** 'signed' (the case's report) or 'supplementary' (an accepted supplementary report). */
  kind: string;
  /** The report version the signing wrote (unique per report). */
  report_version: number;
  supplements_document_id: number | null;
  verify_code: string;
  /** The report data the PDFs were rendered from (JSON of report-documents.ts's FrozenContent). */
  content: string;
  content_sha256: string;
  /** "<key id>.<HMAC-SHA256 of content_sha256>". */
  seal: string;
  signed_by: number | null;
  created_at: string;
  /** Set when the signing was recalled; the document stays retrievable. */
  superseded_at: string | null;
}

/** The PDF of a report document in one language. */
export interface ReportDocumentPdfTable {
  document_id: number;
  language: string;
  pdf: Buffer;
  sha256: string;
  size: number;
}

export interface ReportTables {
  reports: ReportTable;
  report_documents: ReportDocumentTable;
  report_document_pdfs: ReportDocumentPdfTable;
  diagnosis_templates: DiagnosisTemplateTable;
  diagnosis_phrases: DiagnosisPhraseTable;
  report_templates: ReportTemplateTable;
  report_keys: ReportKeyTable;
  report_structs: ReportStructTable;
  dict_rules: DictRuleTable;
}
