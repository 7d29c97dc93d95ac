import { mulberry32 } from './random.js';

/** RGB, 8 bits per sample, row-major: what sharp takes as `raw` input with 3 channels. */
export type Rgb = Buffer;

const EOSIN: [number, number, number] = [238, 176, 208];
const TISSUE: [number, number, number] = [196, 128, 196];
const NUCLEUS: [number, number, number] = [78, 44, 128];

/**
 * One square texture of H&E-like look: pink eosin (stroma, sparse elongated nuclei) or purple
 * tissue (dense round dark nuclei). Nuclei stay clear of the edges so neighbouring textures, chosen
 * at random per tile, meet without cut cells; the base noise is faint so seams stay faint too.
 */
export function paintTexture(size: number, kind: 'tissue' | 'background', seed: number): Rgb {
  const rand = mulberry32(seed);
  const base = kind === 'tissue' ? TISSUE : EOSIN;
  const out = Buffer.alloc(size * size * 3);

  // Low-frequency value noise on an 8×8 lattice, bilinear, plus a little per-pixel grain.
  const L = 9;
  const lattice = Array.from({ length: L * L }, () => (rand() - 0.5) * 14);
  const fibrePhase = rand() * Math.PI * 2;
  const fibreAngle = rand() * Math.PI;
  const fc = Math.cos(fibreAngle), fs = Math.sin(fibreAngle);
  for (let y = 0; y < size; y++) {
    const ly = (y / size) * (L - 1), y0 = Math.floor(ly), ty = ly - y0;
    for (let x = 0; x < size; x++) {
      const lx = (x / size) * (L - 1), x0 = Math.floor(lx), tx = lx - x0;
      const i0 = y0 * L + x0;
      const n = (lattice[i0] * (1 - tx) + lattice[i0 + 1] * tx) * (1 - ty)
        + (lattice[i0 + L] * (1 - tx) + lattice[i0 + L + 1] * tx) * ty;
      const fibre = kind === 'background' ? 7 * Math.max(0, Math.sin((x * fc + y * fs) * 0.21 + fibrePhase)) ** 6 : 0;
      const grain = (rand() - 0.5) * 6;
      const p = (y * size + x) * 3;
      out[p] = clamp(base[0] + n + grain - fibre);
      out[p + 1] = clamp(base[1] + n + grain - 1.6 * fibre);
      out[p + 2] = clamp(base[2] + n * 0.6 + grain - fibre);
    }
  }

  const nuclei = kind === 'tissue' ? 70 + Math.floor(rand() * 50) : 3 + Math.floor(rand() * 6);
  for (let k = 0; k < nuclei; k++) {
    const r = kind === 'tissue' ? 3.5 + rand() * 3.5 : 2.5 + rand() * 1.5;
    const stretch = kind === 'tissue' ? 1 + rand() * 0.5 : 2.2 + rand() * 1.5;
    const margin = Math.ceil(r * stretch) + 2;
    if (size <= 2 * margin) continue;
    const cx = margin + rand() * (size - 2 * margin);
    const cy = margin + rand() * (size - 2 * margin);
    const angle = rand() * Math.PI;
    const darkness = 0.75 + rand() * 0.25;
    stampNucleus(out, size, cx, cy, r, stretch, angle, darkness);
  }
  return out;
}

function stampNucleus(out: Rgb, size: number, cx: number, cy: number, r: number, stretch: number, angle: number, darkness: number) {
  const c = Math.cos(angle), s = Math.sin(angle);
  const reach = Math.ceil(r * stretch) + 1;
  for (let y = Math.floor(cy - reach); y <= Math.ceil(cy + reach); y++) {
    for (let x = Math.floor(cx - reach); x <= Math.ceil(cx + reach); x++) {
      if (x < 0 || y < 0 || x >= size || y >= size) continue;
      const dx = x - cx, dy = y - cy;
      const u = (dx * c + dy * s) / stretch, v = -dx * s + dy * c;
      const d = Math.hypot(u, v) / r;
      if (d >= 1.15) continue;
      // Soft rim, slightly lighter centre (chromatin), full colour in between.
      const a = darkness * (d > 0.85 ? (1.15 - d) / 0.3 : d < 0.3 ? 0.85 : 1);
      const p = (y * size + x) * 3;
      for (let ch = 0; ch < 3; ch++) out[p + ch] = clamp(out[p + ch] * (1 - a) + NUCLEUS[ch] * a);
    }
  }
}

/** Mixes two textures by the tissue fraction at each pixel (for tiles on a tissue outline). */
export function blendTextures(background: Rgb, tissue: Rgb, size: number, fraction: (x: number, y: number) => number): Rgb {
  const out = Buffer.alloc(size * size * 3);
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const m = fraction(x, y);
      const p = (y * size + x) * 3;
      for (let ch = 0; ch < 3; ch++) out[p + ch] = background[p + ch] + (tissue[p + ch] - background[p + ch]) * m + 0.5;
    }
  }
  return out;
}

/** 2×2 box filter of a 2size×2size quad (given as four size×size tiles, null = plain eosin) into one size×size tile. */
export function downsampleQuad(quad: [Rgb | null, Rgb | null, Rgb | null, Rgb | null], size: number): Rgb {
  const out = Buffer.alloc(size * size * 3);
  const half = size / 2;
  for (let q = 0; q < 4; q++) {
    const src = quad[q];
    const ox = (q % 2) * half, oy = (q >> 1) * half;
    for (let y = 0; y < half; y++) {
      for (let x = 0; x < half; x++) {
        const o = ((oy + y) * size + ox + x) * 3;
        if (!src) { out[o] = EOSIN[0]; out[o + 1] = EOSIN[1]; out[o + 2] = EOSIN[2]; continue; }
        const p = (2 * y * size + 2 * x) * 3, p2 = p + size * 3;
        for (let ch = 0; ch < 3; ch++) out[o + ch] = (src[p + ch] + src[p + 3 + ch] + src[p2 + ch] + src[p2 + 3 + ch] + 2) >> 2;
      }
    }
  }
  return out;
}

function clamp(v: number): number {
  return v < 0 ? 0 : v > 255 ? 255 : v;
}
