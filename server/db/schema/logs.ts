import type { Generated } from 'kysely';

/** Logs: logins, operations, client errors, section actions. */

export interface LoginLogTable {
  id: Generated<number>;
  user_id: number | null;
  username: string;
  success: number;
  reason: string;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

export interface OperationLogTable {
  id: Generated<number>;
  user_id: number | null;
  username: string | null;
  method: string;
  path: string;
  route: string | null;
  status_code: number;
  payload: string | null;
  ip: string | null;
  created_at: string;
  /** The hospital the request worked in (migration 0040); null: signed out, or written before. Row-scoped (scoped-tables.ts). */
  hospital_id: number | null;
}

export interface ErrorLogTable {
  id: Generated<number>;
  user_id: number | null;
  username: string | null;
  page: string | null;
  message: string;
  user_agent: string | null;
  created_at: string;
}

export interface SectionLogTable {
  id: Generated<number>;
  slide_id: number | null;
  slide_name: string | null;
  case_id: number | null;
  user_id: number | null;
  username: string | null;
  action: string;
  detail: string | null;
  created_at: string;
}
