import type { MessageKey } from '../../i18n/messages.js';
import type { Params } from '../../i18n/translate.js';
import { AppError } from '../../http/errors.js';

export const CATEGORY_NAME_MAX = 64;
export const REMARK_MAX = 500;

/** A 422 naming one field, its label translated (`msg:`), so the form shows it on that field. */
export function fieldError(field: string, label: MessageKey, key: MessageKey, params: Params = {}): AppError {
  return new AppError(422, 'error.validation', {}, { [field]: [{ key, params: { field: `msg:${label}`, ...params } }] });
}

/** A category's name: trimmed, required, at most 64 characters (the column's width on PostgreSQL). */
export function categoryName(value: unknown): string {
  const name = typeof value === 'string' ? value.trim() : '';
  if (!name) throw fieldError('name', 'collection.field.name', 'validation.required');
  if ([...name].length > CATEGORY_NAME_MAX) throw fieldError('name', 'collection.field.name', 'validation.maxLength', { limit: CATEGORY_NAME_MAX });
  return name;
}

/** A favourite's remark: trimmed; empty means none; at most 500 characters. */
export function remark(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value !== 'string') throw fieldError('remark', 'collection.field.remark', 'validation.type', { type: 'string' });
  const text = value.trim();
  if ([...text].length > REMARK_MAX) throw fieldError('remark', 'collection.field.remark', 'validation.maxLength', { limit: REMARK_MAX });
  return text || null;
}

/** The hospitals whose slides a user may collect: every hospital of theirs (as with show-all-data), or 0 without any. */
export function collectableHospitals(user: { hospitalIds: number[]; hospitalId: number | null }): number[] {
  const ids = new Set(user.hospitalIds);
  if (user.hospitalId !== null) ids.add(user.hospitalId);
  return ids.size ? [...ids] : [0];
}
