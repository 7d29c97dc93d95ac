import type { FacetSchema } from './pageSchema.js';

export interface FacetChoice { value: string; label: string; color?: string; count: number | null }

/**
 * The choices a facet row shows: the schema's values (all of the enum when it names none) in its order, each with
 * its word and count (null while counts are unknown or when the server counted none of it). A value the enum does
 * not know keeps its own name as the word.
 */
export function facetChoices(
  facet: FacetSchema,
  options: readonly { value: unknown; label: string; color?: string }[],
  counts: Record<string, number> | null,
): FacetChoice[] {
  const values = facet.values ?? options.map((o) => String(o.value));
  return values.map((value) => {
    const o = options.find((x) => String(x.value) === value);
    const n = counts ? counts[value] ?? 0 : null;
    return { value, label: o?.label ?? value, ...(o?.color ? { color: o.color } : {}), count: n };
  });
}

/** The search values with the facet's choice set (or removed for "all"); other values stay as they are. */
export function withFacet(params: Record<string, unknown>, field: string, value: string | null): Record<string, unknown> {
  const { [field]: _old, ...rest } = params;
  return value ? { ...rest, [field]: value } : rest;
}

/** The facet's current choice in the search values, or null (all). */
export function facetValue(params: Record<string, unknown>, field: string): string | null {
  const v = params[field];
  return typeof v === 'string' && v ? v : null;
}
