import { ALL_CASE_KINDS, ADDITIONAL_REQUESTS, SPECIAL_EXAMINATIONS } from './caseLifecycle';

/**
 * The price list of a hospital (issue 16, spec §2 income statistics): one price per chargeable item — a case of a
 * kind (spec §1), a special examination, an additional request (spec §4) — written `<kind>:<code>`. What a case or
 * order costs is captured when it is charged (registration, ordering), so a later price change never rewrites
 * history; income statistics sum those captured amounts.
 */
export const PRICE_KINDS = ['case', 'special', 'additional'] as const;
export type PriceKind = (typeof PRICE_KINDS)[number];

export const PRICE_ITEMS: readonly string[] = [
  ...ALL_CASE_KINDS.map((k) => `case:${k}`),
  ...SPECIAL_EXAMINATIONS.map((k) => `special:${k}`),
  ...ADDITIONAL_REQUESTS.map((k) => `additional:${k}`),
];

/** The kind of a price item (`special:immunohistochemisty` → `special`), or null when it is no item. */
export function priceKind(item: string): PriceKind | null {
  if (!PRICE_ITEMS.includes(item)) return null;
  return item.slice(0, item.indexOf(':')) as PriceKind;
}

/** The item a technical order is charged as: its category (`special` / `additional`) and type. */
export const orderItem = (category: string, orderType: string) => `${category}:${orderType}`;
export const caseItem = (caseType: string) => `case:${caseType}`;

/** The largest price one item may carry (yuan): far above any pathology fee, well inside integer cents. */
export const MAX_PRICE = 1_000_000;

/**
 * A price in yuan as integer cents (fen), or null when it is not one: negative, above MAX_PRICE, not finite, or with
 * more than two decimals. Amounts are kept in cents so sums are exact in both databases.
 */
export function priceCents(price: unknown): number | null {
  const n = typeof price === 'string' && price.trim() !== '' ? Number(price) : price;
  if (typeof n !== 'number' || !Number.isFinite(n) || n < 0 || n > MAX_PRICE) return null;
  const cents = Math.round(n * 100);
  // 19.99 * 100 is 1998.9999999999998: a value within a millionth of a cent of a whole cent is that cent.
  return Math.abs(cents - n * 100) < 1e-6 ? cents : null;
}

/** Cents back to yuan for display and export (a sum of integer cents divided once, so 0.1 + 0.2 never shows). */
export const yuan = (cents: number) => Math.round(cents) / 100;
