import { JpegStreamError } from './merge-tables.js';

const DQT = 0xdb;
const DHT = 0xc4;
const SOS = 0xda;
const APP0 = 0xe0;

export interface SplitJpeg {
  /** SOI, every DQT and DHT, EOI: the content of a TIFF JPEGTables tag. */
  tables: Buffer;
  /** The same stream without its tables and without a JFIF APP0: a TIFF "abbreviated" tile. */
  abbreviated: Buffer;
}

/**
 * The writer's side of `mergeJpegTables`: splits a complete baseline JPEG into shared tables and an
 * abbreviated stream, the way libtiff and scanners store JPEG tiles. Only the header (up to SOS) is walked.
 */
export function splitJpegTables(jpeg: Buffer): SplitJpeg {
  if (jpeg[0] !== 0xff || jpeg[1] !== 0xd8) throw new JpegStreamError('not a JPEG (no SOI)');
  const tables: Buffer[] = [jpeg.subarray(0, 2)];
  const rest: Buffer[] = [jpeg.subarray(0, 2)];
  let p = 2;
  while (p + 4 <= jpeg.length) {
    if (jpeg[p] !== 0xff) throw new JpegStreamError(`expected a marker at ${p}`);
    const marker = jpeg[p + 1];
    if (marker === 0xff) { p++; continue; }
    if (marker === SOS) { rest.push(jpeg.subarray(p)); break; }
    const end = p + 2 + jpeg.readUInt16BE(p + 2);
    if (end > jpeg.length) throw new JpegStreamError('segment runs past the end');
    const segment = jpeg.subarray(p, end);
    if (marker === DQT || marker === DHT) tables.push(segment);
    else if (marker !== APP0) rest.push(segment);
    p = end;
  }
  tables.push(Buffer.from([0xff, 0xd9]));
  return { tables: Buffer.concat(tables), abbreviated: Buffer.concat(rest) };
}
