import type { Generated } from 'kysely';

/** Scanners, scan jobs, QC and the focus check (migration 0023, issue 16). */

export type ScannerStatus = 'idle' | 'offline' | 'working' | 'preview' | 'error' | 'init';

export interface ScannerTable {
  id: Generated<number>;
  hospital_id: number;
  area: string | null;
  name: string;
  model: string | null;
  serial_number: string | null;
  location: string | null;
  storage_path: string | null;
  queue_names: string | null;
  code: string | null;
  ip: string | null;
  status: ScannerStatus;
  status_at: string | null;
  heartbeat_at: string | null;
  message: string | null;
  /** SHA-256 of the scanner's API key, hex; the key itself is shown once. */
  key_hash: string | null;
  key_prefix: string | null;
  key_revoked_at: string | null;
  created_at: string;
  updated_at: string;
}

export type ScanResult = 'not_scanned' | 'preview_success' | 'scanned' | 'scan_failed' | 'no_slide';

export interface ScanJobTable {
  id: Generated<number>;
  hospital_id: number;
  scanner_id: number;
  barcode: string | null;
  scan_level: number | null;
  scale: number | null;
  result: ScanResult;
  started_at: string | null;
  finished_at: string | null;
  duration_ms: number | null;
  slide_id: number | null;
  case_id: number | null;
  section_id: number | null;
  /** pending (no slide yet), bound (to its case's glass slide by barcode), not_bound (waits for manual binding). */
  bind_status: string;
  rescan: number;
  message: string | null;
  created_at: string;
  updated_at: string;
}

export interface SlideQcTable {
  id: Generated<number>;
  hospital_id: number;
  slide_id: number;
  blur_share: number | null;
  /** pending, done, failed: the focus check's state. */
  focus_status: string;
  grade: string | null;
  /** Comma-separated reason codes (spec §9). */
  reasons: string | null;
  suggested_reasons: string | null;
  judge: string | null;
  remark: string | null;
  qc_by: number | null;
  qc_at: string | null;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface SlideFocusTable {
  slide_id: number;
  level: number;
  cols: number;
  rows: number;
  cell_width: number;
  cell_height: number;
  threshold: number;
  tissue_cells: number;
  blurred_cells: number;
  blur_share: number;
  map: string;
  ms: number | null;
  created_at: string;
}

export interface QcDictTable {
  id: Generated<number>;
  hospital_id: number;
  type: string;
  name: string;
  en_name: string | null;
  code: string | null;
  rank: number;
  enabled: number;
  created_at: string;
  updated_at: string;
}
