import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { appendStrippedImages } from './append-images.js';
import { readSlideIndex } from './levels.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-append-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const noise = (width: number, height: number, seed: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: seed, g: 90, b: 200 }, noise: { type: 'gaussian', mean: 120, sigma: 40 } } }).raw().toBuffer();

describe('appendStrippedImages', () => {
  it.each([['classic TIFF', false], ['BigTIFF', true]])('adds label and macro directories a %s reader finds, pixels intact', async (_, bigtiff) => {
    const file = path.join(dir, `pyramid-${bigtiff}.tif`);
    await sharp(await noise(700, 500, 1), { raw: { width: 700, height: 500, channels: 3 } })
      .tiff({ tile: true, pyramid: true, tileWidth: 256, tileHeight: 256, compression: 'jpeg', bigtiff }).toFile(file);
    const before = fs.readFileSync(file);
    const label = { description: 'label' as const, width: 123, height: 77, rgb: await noise(123, 77, 2) };
    const macro = { description: 'macro' as const, width: 301, height: 99, rgb: await noise(301, 99, 3) };
    await appendStrippedImages(file, [label, macro]);

    const bytes = fs.readFileSync(file);
    expect(bytes.readUInt16LE(2)).toBe(bigtiff ? 43 : 42);
    const index = await readSlideIndex(async (at, length) => bytes.subarray(at, at + length));
    expect(index.levels.map((l) => l.width)).toEqual([700, 350, 175]);
    const found = Object.fromEntries(index.associated.map((a) => [a.name, a]));
    expect(found.label).toMatchObject({ width: 123, height: 77 });
    expect(found.macro).toMatchObject({ width: 301, height: 99 });
    // libvips (another TIFF reader) decodes the pages back to the very pixels; the pyramid's bytes are untouched.
    for (const image of [label, macro]) {
      const pixels = await sharp(file, { page: found[image.description].page }).raw().toBuffer();
      expect(pixels.equals(image.rgb), image.description).toBe(true);
    }
    const original = await sharp(before, { page: 0 }).raw().toBuffer();
    expect((await sharp(file, { page: 0 }).raw().toBuffer()).equals(original)).toBe(true);
  });

  it('refuses pixels that do not match the stated size, and a file that is not a TIFF', async () => {
    const file = path.join(dir, 'plain.tif');
    await sharp(await noise(64, 64, 4), { raw: { width: 64, height: 64, channels: 3 } }).tiff({ tile: true }).toFile(file);
    await expect(appendStrippedImages(file, [{ description: 'label', width: 10, height: 10, rgb: Buffer.alloc(10) }])).rejects.toThrow(/disagree/);
    const other = path.join(dir, 'not.tif');
    fs.writeFileSync(other, Buffer.from('II\x2a\x01 not a tiff at all', 'latin1'));
    await expect(appendStrippedImages(other, [{ description: 'label', width: 1, height: 1, rgb: Buffer.alloc(3) }])).rejects.toThrow(/not a TIFF/);
  });
});
