/**
 * Bright-field or fluorescence, for the focus check (issue 31 item 8). A bright-field slide is stain on white glass:
 * tissue is what is coloured. A fluorescence slide is light on black: tissue is what shines, dimly (a DAPI channel
 * drawn blue is a tenth of its grey level), so its sharpness is measured on its own brightness scaled to its own
 * range (relative contrast), not on absolute grey levels. Decided once per slide from a small overview image.
 */

/** How a slide's pixels are read: `background` and `peak` are the brightness (max channel) of black and of signal. */
export type FocusMode = { kind: 'bright' } | { kind: 'dark'; background: number; peak: number };

export const BRIGHT_FIELD: FocusMode = { kind: 'bright' };

/**
 * A slide is dark-field when most of its overview is dark: bright-field glass is near white (max channel above 200)
 * and even dense H&E tissue keeps a channel above 100; a fluorescence field is mostly black around what shines.
 */
export const DARK_MEDIAN = 64;
/** Percentiles of brightness taken as black (the field around the tissue) and as the slide's brightest signal. */
const BACKGROUND_PERCENTILE = 0.5;
const PEAK_PERCENTILE = 0.995;

/** The mode of a slide from the RGB pixels of a small overview of it (3 bytes a pixel). */
export function focusModeOf(rgb: Uint8Array): FocusMode {
  const n = Math.floor(rgb.length / 3);
  if (n === 0) return BRIGHT_FIELD;
  const histogram = new Uint32Array(256);
  for (let p = 0; p < n * 3; p += 3) histogram[Math.max(rgb[p], rgb[p + 1], rgb[p + 2])]++;
  const percentile = (q: number) => {
    const want = q * n;
    let seen = 0;
    for (let v = 0; v < 256; v++) if ((seen += histogram[v]) >= want) return v;
    return 255;
  };
  const background = percentile(BACKGROUND_PERCENTILE);
  if (background >= DARK_MEDIAN) return BRIGHT_FIELD;
  // A black overview (nothing shines) still gets a range to scale by: noise, then, is all there is.
  return { kind: 'dark', background, peak: Math.max(percentile(PEAK_PERCENTILE), background + 16) };
}
