import type { Language, Params } from '../../i18n/translate.js';
import { translate } from '../../i18n/translate.js';

const KEY = /^[a-z_]+\.[a-z_]+$/;

/** A refusal as a job keeps it: the message key alone, or with its parameters as JSON, translated when shown. */
export function encodeJobError(key: string, params: Params = {}): string {
  return Object.keys(params).length ? JSON.stringify({ key, params }) : key;
}

/**
 * The message key of a job's stored error, without its parameters (a path, a tool's words): what may travel to every
 * member of a hospital (realtime/job-push.ts); a tool's own text is the conversion failure it is shown as.
 */
export function jobErrorKey(error: string): string {
  if (KEY.test(error)) return error;
  if (error.startsWith('{')) {
    try {
      const { key } = JSON.parse(error) as { key: unknown };
      if (typeof key === 'string' && KEY.test(key)) return key;
    } catch { /* not ours */ }
  }
  return 'slide.conversion_failed';
}

/** A job's stored error in the user's language: a key (with its parameters) translated, a tool's own text wrapped. */
export function jobErrorText(error: string, lang: Language): string {
  if (KEY.test(error)) return translate(lang, error);
  if (error.startsWith('{')) {
    try {
      const { key, params } = JSON.parse(error) as { key: unknown; params: unknown };
      if (typeof key === 'string' && KEY.test(key)) return translate(lang, key, (params ?? {}) as Params);
    } catch { /* not ours: shown as it came */ }
  }
  return translate(lang, 'slide.conversion_failed', { error });
}
