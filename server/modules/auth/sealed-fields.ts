import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { openSealedPassword } from './challenge.js';

/**
 * Fields a contract declares `sealed` (passwords) arrive as `{ key_id, password }` sealed with the server's
 * key, like the login's; they are opened here, before validation. A clear-text value is refused, so
 * no client can quietly send a password unencrypted. Empty values mean "unchanged" and are dropped.
 */
export async function openSealedFields(db: Db, fields: readonly string[], data: Record<string, unknown>): Promise<Record<string, unknown>> {
  if (!fields.length) return data;
  const out = { ...data };
  for (const field of fields) {
    const value = out[field];
    if (value === undefined || value === null || value === '') {
      delete out[field];
      continue;
    }
    const sealed = value as { key_id?: unknown; password?: unknown };
    if (typeof sealed !== 'object' || typeof sealed.key_id !== 'string' || typeof sealed.password !== 'string') {
      throw new AppError(422, 'error.validation', {}, { [field]: [{ key: 'validation.sealed', params: { field } }] });
    }
    const opened = await openSealedPassword(db, sealed.key_id, sealed.password);
    if (!opened.ok) throw new AppError(400, opened.reason === 'undecryptable' ? 'auth.password_undecryptable' : 'auth.challenge_invalid');
    out[field] = opened.password;
  }
  return out;
}
