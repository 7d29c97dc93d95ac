import { describe, expect, it } from 'vitest';
import { FOCUS_THRESHOLD, scoreCell } from './focus';
import { BRIGHT_FIELD, focusModeOf } from './focusMode';

const W = 512, H = 256, CELL = 64;

/** A deterministic 0–1 sequence (the test's pictures are the same every run). */
function random(seed: number) {
  let s = seed >>> 0;
  return () => ((s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32);
}

/**
 * A DAPI-like fluorescence field at ~1 µm/px: dim blue nuclei (radius 3–5 px, brightness 60–140) on a black field
 * with a little sensor noise. Brightness per pixel, one channel; `rgb` draws it blue, as the scanner's channel colour.
 */
function nuclei(seed: number): Float32Array {
  const next = random(seed);
  const v = new Float32Array(W * H);
  for (let k = 0; k < 900; k++) {
    const cx = next() * W, cy = next() * H, r = 3 + next() * 2, level = 60 + next() * 80;
    for (let y = Math.max(0, Math.floor(cy - r)); y <= Math.min(H - 1, Math.ceil(cy + r)); y++) {
      for (let x = Math.max(0, Math.floor(cx - r)); x <= Math.min(W - 1, Math.ceil(cx + r)); x++) {
        if ((x - cx) ** 2 + (y - cy) ** 2 <= r * r) v[y * W + x] = level;
      }
    }
  }
  return v;
}

/** A separable gaussian of σ px over columns [0, until) (a region scanned out of focus), edges clamped. */
function blurLeft(v: Float32Array, sigma: number, until: number): Float32Array {
  const radius = Math.ceil(sigma * 3);
  const kernel = Array.from({ length: 2 * radius + 1 }, (_, i) => Math.exp(-((i - radius) ** 2) / (2 * sigma * sigma)));
  const sum = kernel.reduce((a, b) => a + b, 0);
  const pass = (src: Float32Array, dx: number, dy: number) => {
    const out = new Float32Array(src);
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < until; x++) {
        let acc = 0;
        kernel.forEach((k, i) => {
          const xx = Math.min(W - 1, Math.max(0, x + (i - radius) * dx)), yy = Math.min(H - 1, Math.max(0, y + (i - radius) * dy));
          acc += k * src[yy * W + xx];
        });
        out[y * W + x] = acc / sum;
      }
    }
    return out;
  };
  return pass(pass(v, 1, 0), 0, 1);
}

/** Brightness as blue RGB over a black field of 6 ± 3 (noise), rounded to bytes. */
function rgb(v: Float32Array, seed: number): Uint8Array {
  const next = random(seed);
  const px = new Uint8Array(W * H * 3);
  for (let i = 0; i < W * H; i++) {
    const b = Math.max(0, Math.min(255, Math.round(6 + v[i] + (next() - 0.5) * 6)));
    px.set([Math.round(b * 0.2), Math.round(b * 0.3), b], i * 3);
  }
  return px;
}

/** The cells of a whole-image RGB buffer, row by row, scored by `score`. */
function cells(px: Uint8Array, score: (cell: Uint8Array) => number | null): { x: number; sharpness: number | null }[] {
  const out = [];
  for (let cy = 0; cy < H; cy += CELL) {
    for (let cx = 0; cx < W; cx += CELL) {
      const cell = new Uint8Array(CELL * CELL * 3);
      for (let r = 0; r < CELL; r++) cell.set(px.subarray(((cy + r) * W + cx) * 3, ((cy + r) * W + cx + CELL) * 3), r * CELL * 3);
      out.push({ x: cx, sharpness: score(cell) });
    }
  }
  return out;
}

describe('focus check of a fluorescence slide', () => {
  // Left half 2 µm out of focus (σ 2 px at 1 µm/px, as the API test's 8 px at 0.25 µm/px), right half sharp.
  const px = rgb(blurLeft(nuclei(3), 2, W / 2), 4);

  it('reads a dark field as fluorescence and white glass as bright-field', () => {
    const mode = focusModeOf(px);
    expect(mode.kind).toBe('dark');
    if (mode.kind === 'dark') {
      expect(mode.background).toBeLessThan(16);
      expect(mode.peak).toBeGreaterThan(100);
    }
    // Glass around a pink stain: bright-field, whatever the stain covers.
    const glass = new Uint8Array(W * H * 3).fill(240);
    for (let i = 0; i < W * H * 0.4; i++) glass.set([200, 110, 170], i * 3);
    expect(focusModeOf(glass)).toEqual(BRIGHT_FIELD);
    expect(focusModeOf(new Uint8Array(0))).toEqual(BRIGHT_FIELD);
  });

  it('judges the sharp half sharp and the blurred half blurred, on its own contrast', () => {
    const mode = focusModeOf(px);
    // Cells wholly on one side of the boundary (the blur's edge spreads across the boundary's cells).
    const scored = cells(px, (c) => scoreCell(c, CELL, CELL, mode).sharpness).filter((c) => c.x + CELL <= W / 2 - CELL || c.x >= W / 2 + CELL);
    const left = scored.filter((c) => c.x < W / 2), right = scored.filter((c) => c.x >= W / 2);
    expect(left.length).toBeGreaterThan(0);
    expect(right.length).toBeGreaterThan(0);
    for (const c of [...left, ...right]) expect(c.sharpness).not.toBeNull();
    for (const c of left) expect(c.sharpness!).toBeLessThan(FOCUS_THRESHOLD);
    for (const c of right) expect(c.sharpness!).toBeGreaterThan(FOCUS_THRESHOLD);
  });
});
