import { DUPLICATE_REQUEST_WINDOW_MS } from './constants.js';

const GUARDED = new Set(['post', 'patch', 'put']);

/**
 * Spec §7: a second POST, PATCH or PUT to the same URL within 5 s is refused locally unless the call
 * allows several. The lock opens when the first request settles or the window passes, whichever is first.
 */
export function createDuplicateLock(windowMs = DUPLICATE_REQUEST_WINDOW_MS, now: () => number = Date.now) {
  const inFlight = new Map<string, number>();
  return {
    /** true when the request may go; false when it is a duplicate. */
    acquire(method: string, url: string, allowMultiple = false): boolean {
      if (allowMultiple || !GUARDED.has(method.toLowerCase())) return true;
      const key = `${method.toLowerCase()} ${url}`;
      const started = inFlight.get(key);
      if (started !== undefined && now() - started < windowMs) return false;
      inFlight.set(key, now());
      return true;
    },
    release(method: string, url: string): void {
      inFlight.delete(`${method.toLowerCase()} ${url}`);
    },
  };
}

export const DUPLICATE_REQUEST_MESSAGE_KEY = 'request.duplicate';
