import type { Generated } from 'kysely';

/** Background jobs and stored attachments. */

export interface JobTable {
  id: Generated<number>;
  type: string;
  /** One live (queued or running) job per key, e.g. `slides.convert:42`. */
  dedupe_key: string | null;
  hospital_id: number | null;
  slide_id: number | null;
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
