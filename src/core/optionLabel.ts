import type { Label } from './pageSchema.js';

/** Which column names a resource's rows in a select: one for every language, or one per language (`{ "zh-CN": "name", "en-US": "en_name" }`). */
export type OptionLabelColumns = string | Record<string, string>;

const text = (v: unknown) => (v === undefined || v === null ? '' : String(v).trim());

/**
 * A row's label for a select. Per-language columns give an inline label, so the select follows the UI language
 * and falls back to another language's text when a row has none in this one (a hospital without an English name).
 * One column names rows alike in every language.
 */
export function optionLabel(row: Record<string, unknown>, columns: OptionLabelColumns | undefined, valueKey: string): Label {
  const fallback = text(row[valueKey]);
  if (columns && typeof columns === 'object') {
    const inline = Object.fromEntries(Object.entries(columns).map(([lang, column]) => [lang, text(row[column])]).filter(([, v]) => v));
    return Object.keys(inline).length ? (inline as Label) : fallback;
  }
  return text(row[columns ?? 'name']) || fallback;
}
