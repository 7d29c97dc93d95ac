import { AppError } from '../http/errors.js';

/**
 * Constraint violations are the client's mistake, not the server's: a NOT NULL becomes a required
 * field, a UNIQUE a duplicate, a foreign key a reference to something missing or still in use, a text
 * longer than its PostgreSQL varchar a too-long value. Messages differ between SQLite and PostgreSQL;
 * both are recognised. A statement PostgreSQL cancelled is a timeout (mapTimeout). Anything else is rethrown.
 */
export function mapConstraintError(e: unknown): never {
  // PostgreSQL names the key in `detail`, SQLite in the message.
  const message = `${String((e as Error)?.message ?? '')} ${String((e as { detail?: unknown })?.detail ?? '')}`;
  const notNull = message.match(/NOT NULL constraint failed: \w+\.(\w+)/) ?? message.match(/null value in column "(\w+)"/);
  if (notNull) throw new AppError(422, 'error.validation', {}, { [notNull[1]]: [{ key: 'validation.required', params: { field: notNull[1] } }] });
  // A key unique per owner (hospital_id, item) names its owner first: the field the user chose is the last one.
  const unique = message.match(/UNIQUE constraint failed: (?:\w+\.\w+, )*\w+\.(\w+)/) ?? message.match(/Key \((?:\w+, )*(\w+)\)=\((?:.*, )?(.*?)\) already exists/);
  if (unique) throw new AppError(409, 'resource.duplicate', { field: unique[1], value: unique[2] ?? '' });
  if (/FOREIGN KEY constraint failed|violates foreign key constraint/i.test(message)) throw new AppError(409, 'resource.in_use');
  const tooLong = message.match(/value too long for type character varying\((\d+)\)/);
  if (tooLong) throw new AppError(422, 'resource.text_too_long', { limit: Number(tooLong[1]) });
  return mapTimeout(e);
}

/**
 * PostgreSQL cancelled the statement at statement_timeout (SQLSTATE 57014): the server is well, the
 * request asked too much. 503 says "not now, not like this" without blaming the server's code.
 */
export function mapTimeout(e: unknown): never {
  if ((e as { code?: unknown })?.code === '57014') throw new AppError(503, 'resource.query_timeout');
  throw e;
}
