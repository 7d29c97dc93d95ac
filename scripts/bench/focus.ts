/**
 * Focus-check benchmark (issue 16; not a test). On one demo slide made by the project's own generator:
 *
 * Speed: the focus check run the way the job `slides.focus` runs it (analyseFocus: every 64-px cell of the level
 * nearest 1 µm/px that fits the pixel budget) against a baseline measured in the same run: decoding that level's
 * tiles only, through the same tile reader, in the same order and parallelism (the part no focus check can avoid).
 * The ratio check / decode says what the analysis costs on top of reading the pixels.
 *
 * Accuracy: the analysed level is copied out once, and written back as small pyramidal JPEG TIFFs (quality 80, as
 * the demo slide, with the resolution of the analysed level so the check scores the copy's level 0 = the same
 * pixels): a sharp copy, and per Gaussian σ (in pixels of the analysed level) a copy whose known region is blurred:
 * a vertical band (a scanner stripe out of focus) and scattered 4 × 4-cell fields, aligned to the 64-px cells so
 * every cell is wholly sharp or wholly blurred. Per σ: the measured out-of-focus tissue share against the true share,
 * whether the copy ranks below the sharp copy (higher blur share, the QC list's worst-first order), and per tissue cell
 * against the known mask: precision, recall and the share classified correctly.
 *
 *   node --import tsx scripts/bench/focus.ts [--size 50000] [--runs 3] [--sigmas 0.5,1,2,4] [--dir /tmp/dsms-bench]
 *
 * The demo slide is the tile benchmark's (`DIR/demo-SIZE.tiff`, seed 1, 0.25 µm/px), reused when present.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { FOCUS_THRESHOLD, focusLevel, isBlurredByte } from '../../src/core/focus.js';
import { analyseFocus, BLOCK, CELL, type FocusResult } from '../../server/modules/focus/analyse.js';
import { DEFAULT_BLUR_SHARE_LIMIT } from '../../server/modules/focus/queries.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { SlideStore } from '../../server/modules/tiles/slide-store.js';
import { TileReader } from '../../server/modules/tiles/tile-reader.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp/dsms-bench' },
    size: { type: 'string', default: '50000' },
    runs: { type: 'string', default: '3' },
    sigmas: { type: 'string', default: '0.5,1,2,4' },
    seed: { type: 'string', default: '7' },
  },
});
const dir = path.resolve(values.dir!);
const size = Number(values.size);
const runs = Math.max(1, Number(values.runs));
const sigmas = values.sigmas!.split(',').map(Number);

const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

async function main() {
  console.log(`load average (1/5/15 min) at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${os.cpus().length} cores`);
  fs.mkdirSync(dir, { recursive: true });
  const slide = path.join(dir, `demo-${size}.tiff`);
  await ensureSlide(slide);
  const { level, width, height, mpp } = await analysedLevel(slide);
  const megapixels = (width * height) / 1e6;
  console.log(`slide ${size}x${size} at 0.25 µm/px; the check scores level ${level}: ${width}x${height} (${megapixels.toFixed(1)} MP) at ${mpp.toFixed(2)} µm/px`);

  // Speed: one unmeasured pass of each (page cache, JIT), then `runs` interleaved so a burst of load from other
  // processes falls on both alike.
  const check = () => analyseFocus(slide, { onProgress: () => undefined });
  let original = await check();
  await decodeLevel(slide, level);
  const checkTimes: number[] = [], decodeTimes: number[] = [];
  for (let r = 0; r < runs; r++) {
    let t0 = process.hrtime.bigint();
    original = await check();
    checkTimes.push(ms(t0));
    t0 = process.hrtime.bigint();
    await decodeLevel(slide, level);
    decodeTimes.push(ms(t0));
  }

  // Accuracy: the analysed level's pixels, as the check read them, blurred by region into copies.
  const pixels = await readLevel(slide, level);
  const cols = original.cols, rows = original.rows;
  const mask = blurMask(cols, rows, Number(values.seed));
  const sharpCopy = await writeCopy(pixels, mpp, path.join(dir, `focus-${size}-sharp.tiff`));
  const sharpResult = await analyseCopy(sharpCopy, cols, rows);
  const rowsOut: AccuracyRow[] = [accuracy('sharp copy', 0, sharpResult, mask, sharpResult)];
  for (const sigma of sigmas) {
    const file = await writeCopy(await blurRegion(pixels, mask, sigma), mpp, path.join(dir, `focus-${size}-blur-${sigma}.tiff`));
    rowsOut.push(accuracy(`blurred σ ${sigma} px (${+(sigma * mpp).toFixed(2)} µm)`, sigma, await analyseCopy(file, cols, rows), mask, sharpResult));
    fs.rmSync(file, { force: true });
  }
  fs.rmSync(sharpCopy, { force: true });

  const c = median(checkTimes), d = median(decodeTimes);
  console.log(`\nspeed: focus check of one ${size}x${size} slide (level ${level}, ${width}x${height}), median of ${runs} runs`);
  printTable(['', 'ms / slide', 'MP/s'], [
    ['focus check (as the job)', c.toFixed(0), (megapixels / (c / 1000)).toFixed(1)],
    ['decode level tiles only', d.toFixed(0), (megapixels / (d / 1000)).toFixed(1)],
  ]);
  console.log(`ratio check / decode ${(c / d).toFixed(2)}: the analysis adds ${(c - d).toFixed(0)} ms (${pct((c - d) / c)} of the check) on top of reading the pixels`);
  console.log(`original slide: ${original.tissueCells} tissue cells, ${pct(original.blurShare)} out of focus (threshold ${FOCUS_THRESHOLD})`);

  const maskedShare = mask.reduce((n, m) => n + m, 0) / mask.length;
  console.log(`\naccuracy: blurred region = a band of ${Math.round(cols * BAND)} cell columns + ${FIELD}x${FIELD}-cell fields, ${pct(maskedShare)} of all cells; `
    + `σ in pixels of the analysed level (${mpp.toFixed(2)} µm/px); QC pre-fills "blurry" above ${pct(DEFAULT_BLUR_SHARE_LIMIT)}`);
  printTable(['copy', 'tissue cells', 'true share', 'measured share', 'ranks below sharp', 'precision', 'recall', 'cells correct', 'median sharpness in region'],
    rowsOut.map((r) => [r.name, String(r.tissue), pct(r.trueShare), pct(r.measuredShare), r.sigma === 0 ? '' : (r.ranksBelow ? 'yes' : 'NO'),
      r.sigma === 0 ? '' : r.precision.toFixed(3), r.sigma === 0 ? '' : r.recall.toFixed(3), pct(r.correct), r.medianIn >= 2 * FOCUS_THRESHOLD ? `≥ ${2 * FOCUS_THRESHOLD}` : r.medianIn.toFixed(0)]));
  console.log(`\nload average (1/5/15 min) at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${os.cpus().length} cores`);
}

async function ensureSlide(file: string) {
  if (fs.existsSync(file)) { console.log(`reusing ${file}`); return; }
  // The tile benchmark's slide (no label directory), so either benchmark can reuse the other's.
  const made = await generateDemoSlide({ out: file, width: size, height: size, tileSize: 256, mpp: 0.25, seed: 1, label: false });
  console.log(`generated ${file}: ${made.tiles} tiles, ${(made.bytes / 2 ** 20).toFixed(0)} MiB in ${(made.ms / 1000).toFixed(1)} s`);
}

async function analysedLevel(file: string) {
  const store = new SlideStore({ maxSlides: 1, maxOpenFiles: 4 });
  try {
    const { index } = await store.open(file);
    const level = focusLevel(index.levels, index.mppX);
    const l = index.levels[level];
    return { level, width: l.width, height: l.height, mpp: (index.mppX ?? 0.25) * (index.width / l.width) };
  } finally {
    store.close();
  }
}

/** The baseline: every tile of the level decoded once, a 512-px block's tiles at a time as analyseFocus reads them. */
async function decodeLevel(file: string, level: number) {
  const store = new SlideStore({ maxSlides: 1, maxOpenFiles: 4 });
  const reader = new TileReader();
  try {
    const slide = await store.open(file);
    const l = slide.index.levels[level];
    const span = BLOCK * CELL;
    for (let y = 0; y < l.height; y += span) {
      for (let x = 0; x < l.width; x += span) {
        const tiles: Promise<unknown>[] = [];
        for (let r = Math.floor(y / l.tileHeight); r <= Math.min(l.tilesDown - 1, Math.floor((Math.min(y + span, l.height) - 1) / l.tileHeight)); r++) {
          for (let c = Math.floor(x / l.tileWidth); c <= Math.min(l.tilesAcross - 1, Math.floor((Math.min(x + span, l.width) - 1) / l.tileWidth)); c++) {
            tiles.push(reader.decodeTile(slide, level, c, r));
          }
        }
        await Promise.all(tiles);
      }
    }
  } finally {
    store.close();
  }
}

interface Pixels { data: Buffer; width: number; height: number }

async function readLevel(file: string, level: number): Promise<Pixels> {
  const store = new SlideStore({ maxSlides: 1, maxOpenFiles: 4 });
  try {
    const slide = await store.open(file);
    const l = slide.index.levels[level];
    const image = await new TileReader().readRegion(slide, level, 0, 0, l.width, l.height);
    return { data: image.data, width: image.width, height: image.height };
  } finally {
    store.close();
  }
}

/** Share of the cell columns in the blurred band, and the edge in cells of a blurred field. */
const BAND = 0.2;
const FIELD = 4;

/**
 * 1 for a cell in the blurred region: a band of columns from 30 % across, and 4 × 4-cell fields on a 12-cell grid
 * (about one in three, picked by a seeded generator) outside it.
 */
function blurMask(cols: number, rows: number, seed: number): Uint8Array {
  const mask = new Uint8Array(cols * rows);
  const band0 = Math.round(cols * 0.3), band1 = band0 + Math.round(cols * BAND);
  let s = seed >>> 0;
  const random = () => ((s = (Math.imul(s, 1664525) + 1013904223) >>> 0) / 2 ** 32);
  for (let y = 0; y < rows; y++) for (let x = band0; x < Math.min(cols, band1); x++) mask[y * cols + x] = 1;
  for (let fy = 2; fy + FIELD <= rows; fy += 12) {
    for (let fx = 2; fx + FIELD <= cols; fx += 12) {
      if (random() >= 1 / 3) continue;
      for (let y = fy; y < fy + FIELD; y++) for (let x = fx; x < fx + FIELD; x++) mask[y * cols + x] = 1;
    }
  }
  return mask;
}

/** The level with every masked cell replaced by the same cell of a Gaussian blur of the whole level (σ in pixels). */
async function blurRegion(pixels: Pixels, mask: Uint8Array, sigma: number): Promise<Pixels> {
  const { width, height } = pixels;
  // sharp's default minAmplitude (0.2) cuts the kernel of σ below ~0.6 down to one tap, i.e. no blur at all.
  const blurred = await sharp(pixels.data, { raw: { width, height, channels: 3 }, limitInputPixels: false })
    .blur({ sigma, minAmplitude: 0.001 }).raw().toBuffer();
  const cols = Math.ceil(width / CELL);
  const out = Buffer.from(pixels.data);
  for (let y = 0; y < height; y++) {
    const row = Math.floor(y / CELL) * cols;
    for (let cx = 0; cx < cols; cx++) {
      if (!mask[row + cx]) continue;
      const a = (y * width + cx * CELL) * 3, b = (y * width + Math.min(width, (cx + 1) * CELL)) * 3;
      blurred.copy(out, a, a, b);
    }
  }
  return { data: out, width, height };
}

/** A pyramidal JPEG TIFF (quality 80, 256-px tiles, like the demo slide) whose level 0 is `pixels` at `mpp` µm/px. */
async function writeCopy(pixels: Pixels, mpp: number, file: string): Promise<string> {
  // sharp takes the resolution in pixels per millimetre, whatever the unit written.
  const perMm = 1e3 / mpp;
  await sharp(pixels.data, { raw: { width: pixels.width, height: pixels.height, channels: 3 }, limitInputPixels: false })
    .tiff({ tile: true, pyramid: true, compression: 'jpeg', quality: 80, tileWidth: 256, tileHeight: 256, xres: perMm, yres: perMm, resolutionUnit: 'cm' })
    .toFile(file);
  return file;
}

async function analyseCopy(file: string, cols: number, rows: number): Promise<FocusResult> {
  const result = await analyseFocus(file);
  // The copy must be scored at its level 0, the very pixels of the original's analysed level, cell for cell.
  if (result.level !== 0 || result.cols !== cols || result.rows !== rows) {
    throw new Error(`${file}: scored level ${result.level} (${result.cols}x${result.rows} cells), expected level 0 with ${cols}x${rows}`);
  }
  return result;
}

interface AccuracyRow {
  name: string; sigma: number; tissue: number; trueShare: number; measuredShare: number; ranksBelow: boolean;
  precision: number; recall: number; correct: number; medianIn: number;
}

/** Tissue cells of `r` against the mask (the truth: masked cells are out of focus, the sigma-0 copy has none). */
function accuracy(name: string, sigma: number, r: FocusResult, mask: Uint8Array, sharpResult: FocusResult): AccuracyRow {
  let tp = 0, fp = 0, fn = 0, tn = 0;
  const inside: number[] = [];
  r.map.forEach((v, i) => {
    if (v === 0) return;
    const truth = sigma > 0 && mask[i] === 1;
    const said = isBlurredByte(v);
    // The map byte is sharpness scaled so the threshold is 127 (capped at twice it): back to sharpness units.
    if (mask[i]) inside.push((v / 127) * r.threshold);
    if (truth && said) tp++;
    else if (truth) fn++;
    else if (said) fp++;
    else tn++;
  });
  const tissue = tp + fp + fn + tn;
  return {
    name, sigma, tissue, trueShare: (tp + fn) / tissue, measuredShare: r.blurShare, ranksBelow: r.blurShare > sharpResult.blurShare,
    precision: tp + fp ? tp / (tp + fp) : 0, recall: tp + fn ? tp / (tp + fn) : 0, correct: (tp + tn) / tissue,
    medianIn: inside.length ? median(inside) : 0,
  };
}

function printTable(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`${line(head)}\n|${widths.map((w, i) => (i < 1 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const r of rows) console.log(line(r));
}

main().catch((e) => { console.error(e); process.exit(1); });
