import { mulberry32 } from './random.js';

/** Where tissue lies on the slide: wobbly elliptical blobs, sampled on a coarse grid so a 50k slide costs ~10 MB. */
export interface TissueMap {
  /** Fraction of tissue at level-0 pixel (x, y), bilinear between grid points (0 = background, 1 = tissue). */
  at(x: number, y: number): number;
  /** 'tissue' or 'background' when the whole rectangle is one kind, else 'edge'. */
  classify(x: number, y: number, w: number, h: number): 'tissue' | 'background' | 'edge';
}

interface Blob {
  cx: number; cy: number; r: number; aspect: number; cos: number; sin: number;
  waves: { k: number; amp: number; phase: number }[];
}

export const GRID = 32;

export function makeTissueMap(width: number, height: number, seed: number): TissueMap {
  const rand = mulberry32(seed * 7919 + 17);
  const side = Math.sqrt(width * height);
  const count = Math.max(3, Math.round((width * height) / 12_000 ** 2));
  const blobs: Blob[] = Array.from({ length: count }, () => {
    const rot = rand() * Math.PI;
    return {
      cx: width * (0.1 + 0.8 * rand()),
      cy: height * (0.1 + 0.8 * rand()),
      r: side * (0.05 + 0.09 * rand()) * (count > 3 ? 1 : 1.6),
      aspect: 0.6 + 0.8 * rand(),
      cos: Math.cos(rot), sin: Math.sin(rot),
      waves: [3, 5, 9].map((k) => ({ k, amp: 0.06 + 0.1 * rand() / (k / 3), phase: rand() * 2 * Math.PI })),
    };
  });

  const gw = Math.ceil(width / GRID) + 2;
  const gh = Math.ceil(height / GRID) + 2;
  const grid = new Float32Array(gw * gh);
  for (const b of blobs) {
    const reach = b.r * Math.max(b.aspect, 1 / b.aspect) * 1.4;
    const gx0 = Math.max(0, Math.floor((b.cx - reach) / GRID));
    const gx1 = Math.min(gw - 1, Math.ceil((b.cx + reach) / GRID));
    const gy0 = Math.max(0, Math.floor((b.cy - reach) / GRID));
    const gy1 = Math.min(gh - 1, Math.ceil((b.cy + reach) / GRID));
    for (let gy = gy0; gy <= gy1; gy++) {
      for (let gx = gx0; gx <= gx1; gx++) {
        const m = membership(b, gx * GRID, gy * GRID);
        const i = gy * gw + gx;
        if (m > grid[i]) grid[i] = m;
      }
    }
  }

  const at = (x: number, y: number) => {
    const fx = x / GRID, fy = y / GRID;
    const x0 = Math.min(gw - 2, Math.floor(fx)), y0 = Math.min(gh - 2, Math.floor(fy));
    const tx = fx - x0, ty = fy - y0;
    const i = y0 * gw + x0;
    return (grid[i] * (1 - tx) + grid[i + 1] * tx) * (1 - ty) + (grid[i + gw] * (1 - tx) + grid[i + gw + 1] * tx) * ty;
  };

  const classify = (x: number, y: number, w: number, h: number) => {
    let min = 1, max = 0;
    for (let gy = Math.floor(y / GRID); gy <= Math.min(gh - 1, Math.ceil((y + h) / GRID)); gy++) {
      for (let gx = Math.floor(x / GRID); gx <= Math.min(gw - 1, Math.ceil((x + w) / GRID)); gx++) {
        const v = grid[gy * gw + gx];
        if (v < min) min = v;
        if (v > max) max = v;
      }
    }
    return min >= 1 ? 'tissue' as const : max <= 0 ? 'background' as const : 'edge' as const;
  };
  return { at, classify };
}

/** 1 inside the blob, 0 outside, a linear ramp ~3% of the radius wide across the wobbly outline. */
function membership(b: Blob, x: number, y: number): number {
  const dx = x - b.cx, dy = y - b.cy;
  const u = (dx * b.cos + dy * b.sin) / (b.r * b.aspect);
  const v = (-dx * b.sin + dy * b.cos) / (b.r / b.aspect);
  const d = Math.hypot(u, v);
  const theta = Math.atan2(v, u);
  let edge = 1;
  for (const w of b.waves) edge += w.amp * Math.sin(w.k * theta + w.phase);
  const s = d / edge;
  return s <= 0.985 ? 1 : s >= 1.015 ? 0 : (1.015 - s) / 0.03;
}
