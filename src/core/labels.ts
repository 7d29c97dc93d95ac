import { DEFAULT_LANGUAGE } from './constants.js';
import type { Label } from './pageSchema.js';

/** Looks a key up in the translation files; returns undefined when the key is unknown. */
export type Translate = (key: string) => string | undefined;

export const isInlineLabel = (v: unknown): v is Record<string, string> =>
  !!v && typeof v === 'object' && !Array.isArray(v) && (typeof (v as Record<string, unknown>)['zh-CN'] === 'string' || typeof (v as Record<string, unknown>)['en-US'] === 'string');

/**
 * A page-schema label in the current language. Inline `{ "zh-CN", "en-US" }` text falls back
 * language → default language → any text (amis locale.tsx does the same); a string is an i18n key
 * when the translation files know it, else plain text a hospital typed (shown as is).
 */
export function resolveLabel(label: Label | unknown, lang: string, translate?: Translate): string {
  if (label === undefined || label === null) return '';
  if (typeof label === 'string') return (label && translate?.(label)) || label;
  if (isInlineLabel(label)) {
    const text = label[lang] ?? label[DEFAULT_LANGUAGE] ?? Object.values(label).find((v) => typeof v === 'string');
    return text ?? '';
  }
  return String(label);
}

/** uiSchema keys whose values are labels (the engine resolves them before rjsf sees them). */
const UI_LABEL_KEYS = new Set(['ui:title', 'ui:help', 'ui:description', 'ui:placeholder']);
const OPTION_LABEL_KEYS = new Set(['title', 'help', 'description', 'placeholder', 'label']);

/** A copy of a uiSchema with every label resolved; other values are left alone. */
export function resolveUiSchemaLabels<T>(uiSchema: T, lang: string, translate?: Translate): T {
  const walk = (node: unknown, inOptions: boolean): unknown => {
    if (Array.isArray(node)) return node.map((n) => walk(n, false));
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node as Record<string, unknown>)) {
      if (UI_LABEL_KEYS.has(key) || (inOptions && OPTION_LABEL_KEYS.has(key))) {
        out[key] = typeof value === 'string' || isInlineLabel(value) ? resolveLabel(value, lang, translate) : value;
      } else {
        out[key] = walk(value, key === 'ui:options');
      }
    }
    return out;
  };
  return walk(uiSchema, false) as T;
}
