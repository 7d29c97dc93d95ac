import type { Language, Params } from '../../i18n/translate.js';
import { translate } from '../../i18n/translate.js';

const KEY = /^[a-z_]+\.[a-z_]+$/;

/** A refusal as a job keeps it: the message key alone, or with its parameters as JSON, translated when shown. */
export function encodeJobError(key: string, params: Params = {}): string {
  return Object.keys(params).length ? JSON.stringify({ key, params }) : key;
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
