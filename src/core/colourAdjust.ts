/**
 * The viewer's colour adjustment (spec §2: brightness, contrast, gamma, saturation), as a canvas/CSS filter.
 * Brightness, contrast and saturation are CSS filter functions; gamma has none, so it is an SVG
 * feComponentTransfer the page defines, referenced by id.
 */
export interface ColourAdjust {
  /** 1 = unchanged; 0.2–3 */
  brightness: number;
  contrast: number;
  saturation: number;
  /** Display gamma: > 1 lightens the mid-tones; 0.2–3 */
  gamma: number;
}

export const NEUTRAL_COLOUR: ColourAdjust = { brightness: 1, contrast: 1, saturation: 1, gamma: 1 };
export const COLOUR_RANGE = { min: 0.2, max: 3 } as const;

export const isNeutral = (c: ColourAdjust): boolean =>
  c.brightness === 1 && c.contrast === 1 && c.saturation === 1 && c.gamma === 1;

const clamp = (v: number) => Math.min(COLOUR_RANGE.max, Math.max(COLOUR_RANGE.min, Number.isFinite(v) ? v : 1));

/** `none` when nothing changes (the canvas draws fastest unfiltered); the gamma step only when gamma ≠ 1. */
export function cssFilter(c: ColourAdjust, gammaFilterId: string | null): string {
  if (isNeutral(c)) return 'none';
  const parts: string[] = [];
  if (c.gamma !== 1 && gammaFilterId) parts.push(`url(#${gammaFilterId})`);
  if (c.brightness !== 1) parts.push(`brightness(${clamp(c.brightness)})`);
  if (c.contrast !== 1) parts.push(`contrast(${clamp(c.contrast)})`);
  if (c.saturation !== 1) parts.push(`saturate(${clamp(c.saturation)})`);
  return parts.length ? parts.join(' ') : 'none';
}

/** The exponent of the SVG gamma transfer: display gamma g maps v to v^(1/g). */
export const gammaExponent = (c: ColourAdjust): number => 1 / clamp(c.gamma);
