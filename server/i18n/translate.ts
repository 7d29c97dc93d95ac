import { messages, type MessageKey } from './messages.js';

export const LANGUAGES = ['zh-CN', 'en-US'] as const;
export type Language = (typeof LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'zh-CN';

/** `User-Language` wins; then Accept-Language; then zh-CN (spec §1). */
export function pickLanguage(userLanguage?: string, acceptLanguage?: string): Language {
  for (const candidate of [userLanguage, acceptLanguage]) {
    if (!candidate) continue;
    const lower = candidate.toLowerCase();
    if (lower.startsWith('en')) return 'en-US';
    if (lower.startsWith('zh')) return 'zh-CN';
  }
  return DEFAULT_LANGUAGE;
}

export type Params = Record<string, string | number>;

/**
 * A parameter written `msg:<key>` is itself translated (e.g. the expected type inside a validation message), unless
 * `literal`: parameters a person wrote (a return reason, a patient name) are shown as written, whatever they start with.
 */
export function translate(lang: Language, key: MessageKey | string, params: Params = {}, opts: { literal?: boolean } = {}): string {
  const entry = (messages as Record<string, Record<Language, string>>)[key];
  const text = entry ? entry[lang] ?? entry[DEFAULT_LANGUAGE] : key;
  return text.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = String(params[name] ?? '');
    return !opts.literal && value.startsWith('msg:') ? translate(lang, value.slice(4)) : value;
  });
}
