import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { decodeLabelBarcodes } from './label-barcodes.js';

/** A label as printed: the barcode (bwip-js) on a light card with room around it, as PNG. */
async function label(bcid: string, text: string, turn = 0): Promise<Buffer> {
  const { default: bwipjs } = await import('bwip-js/node');
  const bars = await bwipjs.toBuffer({ bcid, text, scale: 3, height: 12 });
  const card = sharp({ create: { width: 700, height: 420, channels: 3, background: '#f7f7f4' } }).composite([{ input: bars, top: 40, left: 40 }]);
  return sharp(await card.png().toBuffer()).rotate(turn).png().toBuffer();
}

describe('decodeLabelBarcodes', () => {
  it('reads a Code128 label, upright and turned a quarter', async () => {
    expect(await decodeLabelBarcodes(await label('code128', 'P2026-00042-A1-2'))).toEqual(['P2026-00042-A1-2']);
    expect(await decodeLabelBarcodes(await label('code128', 'LBL-0042', 90))).toEqual(['LBL-0042']);
  });

  it('reads a DataMatrix label', async () => {
    expect(await decodeLabelBarcodes(await label('datamatrix', 'P2026-00042-B3-1'))).toEqual(['P2026-00042-B3-1']);
  });

  it('reads both kinds on one label, and nothing from a blank one', async () => {
    const { default: bwipjs } = await import('bwip-js/node');
    const both = await sharp({ create: { width: 900, height: 420, channels: 3, background: '#ffffff' } }).composite([
      { input: await bwipjs.toBuffer({ bcid: 'code128', text: 'ONE-1', scale: 3, height: 12 }), top: 40, left: 40 },
      { input: await bwipjs.toBuffer({ bcid: 'datamatrix', text: 'TWO-2', scale: 6 }), top: 40, left: 600 },
    ]).png().toBuffer();
    expect((await decodeLabelBarcodes(both)).sort()).toEqual(['ONE-1', 'TWO-2']);
    const blank = await sharp({ create: { width: 300, height: 200, channels: 3, background: '#ffffff' } }).png().toBuffer();
    expect(await decodeLabelBarcodes(blank)).toEqual([]);
  });

  it('refuses what is not an image', async () => {
    await expect(decodeLabelBarcodes(Buffer.from('not an image'))).rejects.toThrow();
  });
});
