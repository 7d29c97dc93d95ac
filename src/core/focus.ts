import { BRIGHT_FIELD, type FocusMode } from './focusMode.js';

/**
 * The automatic focus check (issue 16): sharpness of each tissue cell of a slide, measured as the variance of the
 * Laplacian of its grey levels, over tissue pixels only (tissue is what is coloured: HSV saturation above a floor;
 * glass is white or grey). A fluorescence slide (focusMode.ts) is read the other way round: tissue is what shines
 * above its black field, and grey is its brightness scaled to the slide's own range. Pure functions over raw RGB
 * pixels, shared by the server job and the viewer legend.
 */

/** A pixel is tissue when its saturation (max − min) / max is at least this and it is not near-black (dust, pen). */
export const TISSUE_SATURATION = 0.08;
const DARK = 30;
/** A cell is scored when at least this share of its pixels is tissue; below, it is glass (0 in the map). */
export const TISSUE_SHARE = 0.25;
/**
 * A tissue cell is out of focus when its sharpness is below this, at ~1 µm per pixel. An absolute threshold, as
 * HistoQC's blur detection uses: a threshold relative to the slide's own cells fails on tissue whose regions differ
 * in detail by 7× while all in focus (measured on the demo slides: in-focus cells 200–1,500, the same cells under a
 * 1 µm gaussian blur 17–60; tests/api/focus.test.ts).
 */
export const FOCUS_THRESHOLD = 100;

/** Fluorescence: a pixel is signal when its scaled brightness (0 black … 255 the slide's peak) is at least this. */
export const DARK_SIGNAL = 40;
/**
 * Fluorescence: a cell is scored when at least this share of it shines. Less than bright-field's: nuclei and
 * fibres light up, the tissue between them stays near black.
 */
export const DARK_TISSUE_SHARE = 0.1;

export interface CellScore {
  /** Share of tissue pixels, 0–1. */
  tissue: number;
  /** Variance of the Laplacian over tissue pixels; null when the cell is not tissue. */
  sharpness: number | null;
}

/** Scores a cell of `width × height` RGB pixels (3 bytes a pixel, rows packed), read as `mode` says. */
export function scoreCell(rgb: Uint8Array, width: number, height: number, mode: FocusMode = BRIGHT_FIELD): CellScore {
  const n = width * height;
  const grey = new Float32Array(n);
  const tissue = new Uint8Array(n);
  let count = 0;
  if (mode.kind === 'dark') {
    const scale = 255 / (mode.peak - mode.background);
    for (let i = 0, p = 0; i < n; i++, p += 3) {
      grey[i] = (Math.max(rgb[p], rgb[p + 1], rgb[p + 2]) - mode.background) * scale;
      if (grey[i] >= DARK_SIGNAL) {
        tissue[i] = 1;
        count++;
      }
    }
  } else {
    for (let i = 0, p = 0; i < n; i++, p += 3) {
      const r = rgb[p], g = rgb[p + 1], b = rgb[p + 2];
      const max = Math.max(r, g, b), min = Math.min(r, g, b);
      grey[i] = 0.299 * r + 0.587 * g + 0.114 * b;
      if (max > DARK && (max - min) / max >= TISSUE_SATURATION) {
        tissue[i] = 1;
        count++;
      }
    }
  }
  const share = n > 0 ? count / n : 0;
  const enough = mode.kind === 'dark' ? DARK_TISSUE_SHARE : TISSUE_SHARE;
  if (share < enough || width < 3 || height < 3) return { tissue: share, sharpness: null };
  if (mode.kind === 'dark') return { tissue: share, sharpness: relativeSharpness(grey, width, height) };
  // 4-neighbour Laplacian at interior tissue pixels; mean and variance in one pass (Welford).
  let k = 0, mean = 0, m2 = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      if (!tissue[i]) continue;
      const lap = grey[i - 1] + grey[i + 1] + grey[i - width] + grey[i + width] - 4 * grey[i];
      k++;
      const d = lap - mean;
      mean += d / k;
      m2 += d * (lap - mean);
    }
  }
  return { tissue: share, sharpness: k > 1 ? m2 / k : 0 };
}

/**
 * Fluorescence: the variance of the Laplacian over the variance of the brightness, the whole cell (a nucleus's edge
 * against the black is where focus shows): relative contrast, the same for a dim channel as for a bright one.
 * Measured on the two real NDPI channels (0.9 µm/px) with half of each blurred: in focus 0.25–1.2 (p10–p90),
 * σ 1 px 0.04–0.20, σ 2 px 0.02–0.12. The ratio at DARK_FOCUS_RATIO reads as FOCUS_THRESHOLD, so one threshold,
 * map and legend serve both modes.
 */
export const DARK_FOCUS_RATIO = 0.15;

function relativeSharpness(grey: Float32Array, width: number, height: number): number {
  let n = 0, mean = 0, m2 = 0;
  for (let i = 0; i < grey.length; i++) {
    n++;
    const d = grey[i] - mean;
    mean += d / n;
    m2 += d * (grey[i] - mean);
  }
  let k = 0, lapMean = 0, lapM2 = 0;
  for (let y = 1; y < height - 1; y++) {
    for (let x = 1, i = y * width + 1; x < width - 1; x++, i++) {
      const lap = grey[i - 1] + grey[i + 1] + grey[i - width] + grey[i + width] - 4 * grey[i];
      k++;
      const d = lap - lapMean;
      lapMean += d / k;
      lapM2 += d * (lap - lapMean);
    }
  }
  const variance = m2 / n;
  return variance > 0 && k > 1 ? (lapM2 / k / variance) * (FOCUS_THRESHOLD / DARK_FOCUS_RATIO) : 0;
}

export interface FocusSummary {
  /** Tissue cells, and those out of focus. */
  tissueCells: number;
  blurredCells: number;
  /** Share of tissue out of focus, 0–1 (0 when there is no tissue): the slide-level score, higher is worse. */
  blurShare: number;
  threshold: number;
  /**
   * One byte per cell, row by row: 0 glass, 1 out of focus … 255 sharp (sharpness / threshold scaled so that
   * the threshold is 127 and twice it or more is 255); what the viewer draws as a heat map.
   */
  map: Uint8Array;
}

export function summarizeFocus(cells: readonly (number | null)[], threshold = FOCUS_THRESHOLD): FocusSummary {
  const scored = cells.filter((s): s is number => s !== null);
  const map = new Uint8Array(cells.length);
  let blurred = 0;
  cells.forEach((s, i) => {
    if (s === null) return;
    if (s < threshold) blurred++;
    map[i] = focusByte(s, threshold);
  });
  return { tissueCells: scored.length, blurredCells: blurred, blurShare: scored.length ? blurred / scored.length : 0, threshold, map };
}

/** 1–255 with the threshold at 127: below 127 is out of focus. */
export function focusByte(sharpness: number, threshold: number): number {
  const v = Math.round((sharpness / threshold) * 127);
  return Math.max(1, Math.min(255, v));
}

export const isBlurredByte = (v: number) => v > 0 && v < 127;

/**
 * The heat colour of a map byte as RGBA: glass transparent, out of focus red, in focus green, between them through
 * yellow. Used by the viewer overlay.
 */
export function heatColour(v: number): [number, number, number, number] {
  if (v === 0) return [0, 0, 0, 0];
  const t = Math.min(1, v / 255);
  const r = t < 0.5 ? 230 : Math.round(230 * (1 - (t - 0.5) * 2));
  const g = t < 0.5 ? Math.round(200 * t * 2) : 200;
  return [r, g, 40, 150];
}

/**
 * Which pyramid level to score: the one nearest 1 µm per pixel (about 10×, where nuclei are a few pixels wide and
 * focus shows) that holds at most `maxPixels`; without a known pixel size, a downsample of 4. Levels are finest first.
 */
export function focusLevel(levels: readonly { width: number; height: number }[], mpp: number | null, maxPixels = 120e6): number {
  if (levels.length === 0) return -1;
  const base = levels[0].width;
  const target = mpp && mpp > 0 ? 1 / mpp : 4;
  let best = -1, bestGap = Infinity;
  levels.forEach((l, i) => {
    if (l.width * l.height > maxPixels) return;
    const gap = Math.abs(Math.log(base / l.width / target));
    if (gap < bestGap) {
      best = i;
      bestGap = gap;
    }
  });
  return best === -1 ? levels.length - 1 : best;
}
