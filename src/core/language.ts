import { DEFAULT_LANGUAGE, LANGUAGES, type Language } from './constants.js';

/** Maps any tag (zh, zh-Hans-CN, en-GB …) onto one of ours, or undefined. */
export function normaliseLanguage(tag: unknown): Language | undefined {
  if (typeof tag !== 'string' || !tag) return undefined;
  const lower = tag.toLowerCase();
  if (lower.startsWith('zh')) return 'zh-CN';
  if (lower.startsWith('en')) return 'en-US';
  return LANGUAGES.find((l) => l.toLowerCase() === lower);
}

/** The user's saved choice, else the server setting, else the browser, else zh-CN (spec §1). */
export function pickLanguage(saved: unknown, server: unknown, browser: readonly string[]): Language {
  return normaliseLanguage(saved) ?? normaliseLanguage(server) ?? browser.map(normaliseLanguage).find(Boolean) ?? DEFAULT_LANGUAGE;
}
