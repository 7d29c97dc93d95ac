/**
 * The colour names a rule may give a cell (a case's number and status colours, schemas/rules/case-status.json):
 * Fluent UI's palette families, so a name maps to the theme's foreground, background and border of that family
 * in light and dark themes alike. Anything else (a typo, a hospital's invented word) draws no colour.
 */
export const PALETTE_NAMES = ['red', 'cranberry', 'pink', 'marigold', 'gold', 'yellow', 'green', 'teal', 'blue', 'purple', 'grey'] as const;
export type PaletteName = (typeof PALETTE_NAMES)[number];

const known = new Set<string>(PALETTE_NAMES);

/** The palette name a row's colour field holds, or null ('Gold', ' blue ' are read as gold and blue). */
export function paletteName(value: unknown): PaletteName | null {
  if (typeof value !== 'string') return null;
  const name = value.trim().toLowerCase();
  return known.has(name) ? (name as PaletteName) : null;
}
