import { AppError } from '../http/errors.js';
import { isSafeKey } from './storage-key.js';

/** A missing object, said as the app says it: 404 with a translated message naming the key. */
export const objectNotFound = (key: string) => new AppError(404, 'storage.not_found', { key });

/** Every backend method checks its key first: a hostile stored or requested path is refused, never resolved. */
export function checkKey(key: string): string {
  if (!isSafeKey(key)) throw new AppError(422, 'storage.bad_key', { key: key.slice(0, 200) });
  return key;
}

export const isNotFound = (err: unknown) => err instanceof AppError && err.key === 'storage.not_found';
