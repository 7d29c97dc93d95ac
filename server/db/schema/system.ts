import type { Generated } from 'kysely';

/** Background jobs and stored attachments. */

export interface JobTable {
  id: Generated<number>;
  type: string;
  /** One live (queued or running) job per key, e.g. `slides.convert:42`. */
  dedupe_key: string | null;
  hospital_id: number | null;
  slide_id: number | null;
  /** Which runners may claim it (JOB_QUEUES): `default`, or a hospital area's queue for its slides' work. */
  queue: Generated<string>;
  /** JSON of what the job type needs. */
  payload: string;
  status: 'queued' | 'running' | 'done' | 'failed';
  progress: number;
  /** A message key (server/i18n) describing the current step. */
  message: string | null;
  attempts: number;
  max_attempts: number;
  run_after: string;
  lease_owner: string | null;
  lease_until: string | null;
  /** The last failure: a message key or the error text. */
  error: string | null;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

/** Who stored an attachment (POST /api/upload/image), for the per-user quota. PostgreSQL returns bigint as text. */
export interface AttachmentTable {
  id: Generated<number>;
  user_id: number;
  hospital_id: number | null;
  path: string;
  size: number | string;
  created_at: string;
}

/** A chunk of an upload kept in object storage (uploads/parts/<upload_id>/<num>), present once this row exists. PostgreSQL returns bigint as text. */
export interface UploadChunkTable {
  upload_id: string;
  num: number;
  size: number;
  created_at: number | string;
}

/** Who is verifying and publishing an upload kept in object storage; `heartbeat_at` (ms) moves while it works. */
export interface UploadFinishTable {
  upload_id: string;
  owner: string;
  heartbeat_at: number | string;
}

/** HL7 v2 messages taken from and sent to the HIS (migration 0042; modules/hl7). */
export interface Hl7MessageTable {
  id: Generated<number>;
  direction: 'in' | 'out';
  hospital_id: number | null;
  message_type: string;
  control_id: string;
  peer: string;
  status: string;
  ack_code: string | null;
  error: string | null;
  attempts: Generated<number>;
  detail: string | null;
  raw: string;
  ack: string | null;
  dedupe_key: string | null;
  created_at: string;
  updated_at: string;
}

/** Patients the HIS registered over HL7 (ADT), by outpatient or admission number (migration 0042). */
export interface Hl7PatientTable {
  hospital_id: number;
  number_kind: 'outpatient' | 'admission';
  number: string;
  patient: string;
  message_id: number | null;
  updated_at: string;
}
