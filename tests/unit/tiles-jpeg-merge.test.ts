import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ADOBE_RGB_APP14, JpegStreamError, mergeJpegTables } from '../../server/modules/tiles/jpeg/merge-tables.js';
import { splitJpegTables } from '../../server/modules/tiles/jpeg/split-tables.js';

const SOI = Buffer.from([0xff, 0xd8]);

async function sampleJpeg(): Promise<Buffer> {
  const raw = Buffer.alloc(64 * 48 * 3);
  for (let i = 0; i < raw.length; i++) raw[i] = (i * 37) % 251;
  return sharp(raw, { raw: { width: 64, height: 48, channels: 3 } }).jpeg({ quality: 80 }).toBuffer();
}

const pixels = (jpeg: Buffer) => sharp(jpeg).raw().toBuffer();

describe('JPEGTables merge', () => {
  it('splits a JPEG into TIFF tables and an abbreviated stream, and merges them back to the same pixels', async () => {
    const jpeg = await sampleJpeg();
    const { tables, abbreviated } = splitJpegTables(jpeg);
    expect(tables.subarray(0, 2)).toEqual(SOI);
    expect(tables.subarray(-2)).toEqual(Buffer.from([0xff, 0xd9]));
    expect(abbreviated.includes(Buffer.from([0xff, 0xdb]))).toBe(false); // no DQT left in the tile header
    await expect(sharp(abbreviated).raw().toBuffer()).rejects.toThrow();

    const merged = mergeJpegTables(tables, abbreviated, { rgb: false });
    expect(merged.length).toBe(tables.length - 2 + abbreviated.length - 2);
    expect(merged.subarray(0, tables.length - 2)).toEqual(tables.subarray(0, -2));
    expect(merged.subarray(tables.length - 2)).toEqual(abbreviated.subarray(2));
    expect(await pixels(merged)).toEqual(await pixels(jpeg));
  });

  it('marks RGB-photometric tiles with an Adobe APP14 (transform 0) right after SOI', async () => {
    const { tables, abbreviated } = splitJpegTables(await sampleJpeg());
    const merged = mergeJpegTables(tables, abbreviated, { rgb: true });
    expect(merged.subarray(0, 2)).toEqual(SOI);
    expect(merged.subarray(2, 18)).toEqual(ADOBE_RGB_APP14);
    expect(ADOBE_RGB_APP14.readUInt16BE(2)).toBe(14);
    expect(ADOBE_RGB_APP14.toString('latin1', 4, 9)).toBe('Adobe');
    expect(ADOBE_RGB_APP14[15]).toBe(0);
    // Same data, now read as RGB instead of YCbCr: it decodes, to different colours.
    expect(await pixels(merged)).not.toEqual(await pixels(mergeJpegTables(tables, abbreviated, { rgb: false })));
  });

  it('passes self-contained tiles through, and refuses streams without SOI', async () => {
    const jpeg = await sampleJpeg();
    expect(mergeJpegTables(null, jpeg, { rgb: false })).toBe(jpeg);
    expect(mergeJpegTables(null, jpeg, { rgb: true }).subarray(2, 18)).toEqual(ADOBE_RGB_APP14);
    expect(() => mergeJpegTables(null, Buffer.from([0, 1, 2]), { rgb: false })).toThrow(JpegStreamError);
    expect(() => mergeJpegTables(Buffer.from([1, 2, 3, 4, 5]), jpeg, { rgb: false })).toThrow(JpegStreamError);
  });
});
