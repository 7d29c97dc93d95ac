import { AppError } from '../http/errors.js';
import type { ColumnType } from './definition.js';
import { LIST_LIMITS } from './limits.js';

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME = /^\d{4}-\d{2}-\d{2}([ T]\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

/**
 * Brings a filter value (from a query string, every value is text) to the column's type, or refuses it.
 * Datetimes are stored as ISO-8601 UTC; a time without a zone (the date pickers send
 * `YYYY-MM-DD HH:mm:ss`) is read in the server's zone, which is the hospital's. Text is at most
 * `maxText` characters (a filter value's bound unless a write says otherwise) and never holds NUL,
 * which PostgreSQL cannot store or compare.
 */
export function coerceValue(column: string, type: ColumnType, value: unknown, maxText: number = LIST_LIMITS.valueLength): string | number {
  const refuse = () => new AppError(422, 'resource.bad_value', { column, expected: `msg:expected.${type}` });
  switch (type) {
    case 'integer': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim()) ? Number(value) : NaN;
      if (!Number.isSafeInteger(n)) throw refuse();
      return n;
    }
    case 'number': {
      const n = typeof value === 'number' ? value : typeof value === 'string' && value.trim() !== '' ? Number(value) : NaN;
      if (!Number.isFinite(n)) throw refuse();
      return n;
    }
    case 'boolean': {
      if (value === true || value === 1 || value === '1' || value === 'true') return 1;
      if (value === false || value === 0 || value === '0' || value === 'false') return 0;
      throw refuse();
    }
    case 'date': {
      if (typeof value !== 'string' || !DATE.test(value.trim().slice(0, 10))) throw refuse();
      return value.trim().slice(0, 10);
    }
    case 'datetime': {
      if (typeof value !== 'string' || !DATETIME.test(value.trim())) throw refuse();
      const text = value.trim().replace(' ', 'T');
      const date = new Date(text.length === 10 ? `${text}T00:00:00` : text);
      if (Number.isNaN(date.getTime())) throw refuse();
      return date.toISOString();
    }
    case 'string':
    case 'json': {
      if (typeof value === 'number' && Number.isFinite(value)) return String(value);
      if (typeof value !== 'string' || value.includes('\u0000')) throw refuse();
      if (value.length > maxText) throw new AppError(422, 'resource.value_too_long', { column, limit: maxText });
      return value;
    }
  }
}
