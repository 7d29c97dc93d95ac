import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isBlurredByte } from '../../src/core/focus.js';
import { analyseFocus } from '../../server/modules/focus/analyse.js';
import { convertWithOpenSlide } from '../../server/modules/slides/conversion/openslide-convert.js';
import { realSlide, realSlides, REAL_DIR } from '../support/real-slides.js';

const NDPI = { dapi: 'test3-DAPI-2-(387).ndpi', tritc: 'test3-TRITC 2 (560).ndpi' } as const;
const present = realSlides(NDPI.dapi) && realSlides(NDPI.tritc);

if (!present) {
  describe('focus check of real fluorescence slides', () => {
    it.skip(`skipped: ${REAL_DIR} is absent (the real slide files are not committed)`, () => {});
  });
}

/**
 * The focus check on the two real Hamamatsu fluorescence channels (issue 31 item 8), converted as a bind converts
 * them: read as bright-field they were judged 100 % (DAPI) and 89 % (TRITC) out of focus; read as fluorescence
 * (dark field, relative contrast) they are in focus, and a copy with its left half blurred 2 µm is caught on that
 * half and not on the other. A bright-field scan stays bright-field.
 */
describe.runIf(present)('focus check of real fluorescence slides', () => {
  let dir = '';
  const converted: Record<keyof typeof NDPI, string> = { dapi: '', tritc: '' };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-focus-fluorescence-'));
    for (const key of Object.keys(NDPI) as (keyof typeof NDPI)[]) {
      const copy = path.join(dir, `${key}.ndpi`);
      fs.copyFileSync(realSlide(NDPI[key]), copy);
      converted[key] = (await convertWithOpenSlide(copy)).file;
    }
  }, 120_000);

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it.each(['dapi', 'tritc'] as const)('reads %s as fluorescence, in focus', async (key) => {
    const r = await analyseFocus(converted[key]);
    expect(r.mode.kind).toBe('dark');
    expect(r.tissueCells).toBeGreaterThan(100);
    expect(r.blurShare).toBeLessThan(0.1);
  });

  it.each(['dapi', 'tritc'] as const)('catches the blurred half of a %s copy and only that half', async (key) => {
    // The level the check reads (~0.9 µm/px), its left half blurred σ 2 px (≈ 2 µm), written at that resolution.
    const mpp = 0.2281750559028887 * 4;
    const { width = 0, height = 0 } = await sharp(converted[key], { page: 2 }).metadata();
    const half = await sharp(converted[key], { page: 2 }).extract({ left: 0, top: 0, width: Math.floor(width / 2), height }).blur(2).toBuffer();
    const out = path.join(dir, `${key}-half-blurred.tiff`);
    await sharp(converted[key], { page: 2 }).composite([{ input: half, left: 0, top: 0 }])
      .tiff({ tile: true, pyramid: true, compression: 'jpeg', quality: 90, tileWidth: 256, tileHeight: 256, xres: 1000 / mpp, yres: 1000 / mpp, resolutionUnit: 'cm' })
      .toFile(out);
    const r = await analyseFocus(out);
    expect(r.level).toBe(0);
    let left = 0, leftBlurred = 0, right = 0, rightBlurred = 0;
    for (let row = 0; row < r.rows; row++) {
      for (let col = 0; col < r.cols; col++) {
        const v = r.map[row * r.cols + col];
        if (v === 0) continue;
        const x0 = col * r.cellWidth, x1 = x0 + r.cellWidth;
        // Cells next to the boundary see both halves: left out.
        if (x1 <= width / 2 - r.cellWidth) {
          left++;
          if (isBlurredByte(v)) leftBlurred++;
        } else if (x0 >= width / 2 + r.cellWidth) {
          right++;
          if (isBlurredByte(v)) rightBlurred++;
        }
      }
    }
    expect(left).toBeGreaterThan(20);
    expect(leftBlurred / left).toBeGreaterThan(0.75);
    expect(rightBlurred / right).toBeLessThan(0.05);
  });

  it('keeps a bright-field scan bright-field', async () => {
    const r = await analyseFocus(realSlide('CMU-1-Small-Region.svs'));
    expect(r.mode).toEqual({ kind: 'bright' });
    expect(r.blurShare).toBeLessThan(0.05);
  });
});
