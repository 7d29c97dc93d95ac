/**
 * TIFF JPEG (compression 7) usually stores each tile as an "abbreviated" JPEG stream: SOI, frame and scan,
 * without the quantisation and Huffman tables, which live once per level in the JPEGTables tag
 * (SOI, DQT/DHT…, EOI). A browser needs one self-contained JPEG, so we splice the two streams:
 * the tables without their EOI, then the tile without its SOI. No pixel is decoded.
 */

const SOI = 0xd8;
const EOI = 0xd9;

/**
 * Adobe APP14 with transform 0: "the three components are RGB, do not convert from YCbCr".
 * Aperio often stores Photometric=RGB JPEG tiles; without this marker (and with no JFIF marker)
 * libjpeg, browsers and sharp assume YCbCr and the colours come out wrong.
 */
export const ADOBE_RGB_APP14 = Buffer.from([
  0xff, 0xee, 0x00, 0x0e, // APP14, length 14
  0x41, 0x64, 0x6f, 0x62, 0x65, // "Adobe"
  0x00, 0x64, // DCTEncodeVersion 100
  0x00, 0x00, 0x00, 0x00, // flags0, flags1
  0x00, // transform 0: no colour transform
]);

export class JpegStreamError extends Error {}

export interface MergeOptions {
  /** Photometric=RGB with three samples: insert the Adobe marker so decoders keep the samples as RGB. */
  rgb: boolean;
}

export function mergeJpegTables(tables: Buffer | null, tile: Buffer, { rgb }: MergeOptions): Buffer {
  if (!startsWithSoi(tile)) throw new JpegStreamError('tile does not start with SOI');
  const app14 = rgb ? ADOBE_RGB_APP14 : null;
  if (!tables || tables.length <= 4) {
    return app14 ? Buffer.concat([tile.subarray(0, 2), app14, tile.subarray(2)]) : tile;
  }
  if (!startsWithSoi(tables)) throw new JpegStreamError('JPEGTables does not start with SOI');
  const tablesEnd = endsWithEoi(tables) ? tables.length - 2 : tables.length;
  const parts = app14
    ? [tables.subarray(0, 2), app14, tables.subarray(2, tablesEnd), tile.subarray(2)]
    : [tables.subarray(0, tablesEnd), tile.subarray(2)];
  return Buffer.concat(parts, parts.reduce((n, p) => n + p.length, 0));
}

function startsWithSoi(b: Buffer): boolean {
  return b.length >= 2 && b[0] === 0xff && b[1] === SOI;
}

function endsWithEoi(b: Buffer): boolean {
  return b.length >= 2 && b[b.length - 2] === 0xff && b[b.length - 1] === EOI;
}
