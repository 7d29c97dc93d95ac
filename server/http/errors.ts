import type { MessageKey } from '../i18n/messages.js';
import type { Params } from '../i18n/translate.js';

/** Errors are values with an HTTP status and a message key; the error handler translates them. */
export class AppError extends Error {
  constructor(
    readonly status: number,
    readonly key: MessageKey,
    readonly params: Params = {},
    /** field → message keys (translated by the handler) */
    readonly fieldErrors?: Record<string, { key: MessageKey; params?: Params }[]>,
  ) {
    super(key);
  }
}

export const notFound = (key: MessageKey = 'error.not_found', params?: Params) => new AppError(404, key, params);
export const forbidden = (permission: string) => new AppError(403, 'error.forbidden', { permission });
export const unauthenticated = () => new AppError(401, 'error.unauthenticated');
export const unprocessable = (key: MessageKey, params?: Params) => new AppError(422, key, params);
