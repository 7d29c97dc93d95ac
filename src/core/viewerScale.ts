/**
 * Magnification, scale bar and the image ↔ screen mapping of the slide viewer, as plain numbers so they are
 * tested without a browser. "Image zoom" is screen pixels per level-0 image pixel (OpenSeadragon's
 * viewportToImageZoom); a slide shown at its scanning objective (e.g. 40×) has image zoom 1.
 */

/** The magnification buttons of the viewer; `fit` shows the whole slide. */
export const MAGNIFICATIONS = [1, 2, 4, 10, 20, 40] as const;

/**
 * The objective a level-0 pixel stands for: the scanner's own when it wrote one, else from the pixel size
 * (the common convention 10 µm / mpp: 0.25 µm → 40×, 0.5 µm → 20×), else 40× (most scanners today).
 */
export function baseMagnification(objectivePower: number | null | undefined, mpp: number | null | undefined): number {
  if (objectivePower && objectivePower > 0) return objectivePower;
  if (mpp && mpp > 0) return 10 / mpp;
  return 40;
}

export const magnificationAt = (imageZoom: number, base: number): number => imageZoom * base;
export const imageZoomFor = (magnification: number, base: number): number => magnification / base;

export function formatMagnification(m: number): string {
  if (m >= 10) return `${m.toFixed(0)}×`;
  return `${m.toFixed(m >= 1 ? 1 : 2)}×`;
}

export interface ScaleBar { widthPx: number; label: string }

/**
 * The longest round length (1, 2 or 5 × 10ⁿ µm) whose bar fits in `maxPx` screen pixels at this zoom, with
 * its label in µm below a millimetre and mm from there. Null without a pixel size: no honest scale.
 */
export function scaleBar(mpp: number | null | undefined, imageZoom: number, maxPx = 160): ScaleBar | null {
  if (!mpp || mpp <= 0 || !(imageZoom > 0)) return null;
  const umPerScreenPx = mpp / imageZoom;
  const maxUm = maxPx * umPerScreenPx;
  const exp = Math.floor(Math.log10(maxUm));
  let length = 10 ** exp;
  for (const step of [5, 2, 1]) {
    if (step * 10 ** exp <= maxUm) { length = step * 10 ** exp; break; }
  }
  const widthPx = length / umPerScreenPx;
  const label = length >= 1000 ? `${trim(length / 1000)} mm` : `${trim(length)} µm`;
  return { widthPx, label };
}

const trim = (v: number) => String(Number(v.toPrecision(6)));

/** A 2-D affine map x' = a·x + c·y + e, y' = b·x + d·y + f (the SVG matrix(a b c d e f) order). */
export interface Affine { a: number; b: number; c: number; d: number; e: number; f: number }

/**
 * The affine map that takes image (0,0), (1,0) and (0,1) to the given screen points: OpenSeadragon's
 * image → element conversion sampled at three points, which carries its zoom, pan, rotation and flip.
 */
export function affineFromPoints(o: readonly [number, number], x1: readonly [number, number], y1: readonly [number, number]): Affine {
  return { a: x1[0] - o[0], b: x1[1] - o[1], c: y1[0] - o[0], d: y1[1] - o[1], e: o[0], f: o[1] };
}

export function applyAffine(m: Affine, p: readonly [number, number]): [number, number] {
  return [m.a * p[0] + m.c * p[1] + m.e, m.b * p[0] + m.d * p[1] + m.f];
}

export function invertAffine(m: Affine): Affine {
  const det = m.a * m.d - m.b * m.c;
  if (det === 0) throw new Error('singular transform');
  return {
    a: m.d / det, b: -m.b / det, c: -m.c / det, d: m.a / det,
    e: (m.c * m.f - m.d * m.e) / det, f: (m.b * m.e - m.a * m.f) / det,
  };
}

/** Screen pixels per image pixel along the x axis (the same along y: the map is a similarity). */
export const affineScale = (m: Affine): number => Math.hypot(m.a, m.b);

/** Grid lines (image pixels) every `stepUm` µm across the visible box; none when they would be denser than `minGapPx` on screen. */
export function gridLines(box: { minX: number; minY: number; maxX: number; maxY: number }, mpp: number, stepUm: number, imageZoom: number, minGapPx = 6): { xs: number[]; ys: number[] } {
  const step = stepUm / mpp;
  if (!(step > 0) || step * imageZoom < minGapPx) return { xs: [], ys: [] };
  const line = (from: number, to: number) => {
    const out: number[] = [];
    for (let v = Math.ceil(from / step) * step; v <= to && out.length < 1000; v += step) out.push(v);
    return out;
  };
  return { xs: line(Math.max(0, box.minX), box.maxX), ys: line(Math.max(0, box.minY), box.maxY) };
}
