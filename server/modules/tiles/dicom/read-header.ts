import dicomParser, { type DataSet } from 'dicom-parser';
import type { ReadAt } from '../tiff/ifd-parser.js';
import { DicomSeriesError } from './errors.js';

/** A DICOM file's data set up to (not including) its pixel data, and where the pixel data's value starts. */
export interface DicomHeader {
  dataSet: DataSet;
  transferSyntaxUid: string;
  /** File position of the first byte of the Pixel Data value (after its tag and length), or null without pixel data. */
  pixelDataOffset: number | null;
  /** Declared length of the Pixel Data value; null when undefined (encapsulated). */
  pixelDataLength: number | null;
}

const PIXEL_DATA = 'x7fe00010';
const FIRST_READ = 64 * 1024;
/**
 * Headers of sparse pyramids carry one functional-group item per frame (~150 bytes each): 64 MiB covers
 * several hundred thousand frames. A longer header is refused rather than read into memory.
 */
export const MAX_HEADER_BYTES = 64 * 2 ** 20;

/**
 * Reads only the header: the first 64 KiB, doubled while the parser runs out of bytes before the pixel data,
 * never the frames. `base` is the file's first byte in `readAt`'s address space.
 */
export async function readDicomHeader(readAt: ReadAt, base: number, fileSize: number): Promise<DicomHeader> {
  const head = await readAt(base, Math.min(132, fileSize));
  if (head.length < 132 || head.toString('latin1', 128, 132) !== 'DICM') throw new DicomSeriesError('not_dicom');
  for (let size = Math.min(FIRST_READ, fileSize); ; size = Math.min(size * 2, fileSize)) {
    const bytes = await readAt(base, size);
    if (bytes.length < size) throw new DicomSeriesError('truncated');
    const parsed = tryParse(bytes);
    if (parsed) return parsed;
    if (size >= fileSize) throw new DicomSeriesError('truncated');
    if (size >= MAX_HEADER_BYTES) throw new DicomSeriesError('header_too_large', { limit: MAX_HEADER_BYTES });
  }
}

/** The header, or null when the bytes end inside it (the parser reads past the buffer). */
function tryParse(bytes: Buffer): DicomHeader | null {
  let dataSet: DataSet;
  try {
    dataSet = dicomParser.parseDicom(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.length), { untilTag: PIXEL_DATA });
  } catch (err) {
    if (pastEnd(err)) return null;
    throw new DicomSeriesError('not_dicom', {}, describe(err));
  }
  const transferSyntaxUid = (dataSet.string('x00020010') ?? '').trim();
  const pixel = dataSet.elements[PIXEL_DATA];
  if (!pixel) {
    // The parser stops quietly at the end of the buffer: only a data set that ends before the buffer does is complete.
    const ends = Object.values(dataSet.elements).reduce((m, e) => Math.max(m, e.dataOffset + (e.length === 0xffffffff ? 0 : e.length)), 0);
    if (ends >= bytes.length - 16) return null;
    return { dataSet, transferSyntaxUid, pixelDataOffset: null, pixelDataLength: null };
  }
  return {
    dataSet,
    transferSyntaxUid,
    pixelDataOffset: pixel.dataOffset,
    pixelDataLength: pixel.hadUndefinedLength || pixel.length === 0xffffffff ? null : pixel.length,
  };
}

/** dicom-parser throws strings (or `{ exception }`) saying it would read "past end of buffer" when the header goes on. */
function pastEnd(err: unknown): boolean {
  return /past end of buffer|buffer overread|eof|end of buffer/i.test(describe(err));
}

function describe(err: unknown): string {
  if (typeof err === 'string') return err;
  if (err && typeof err === 'object' && 'exception' in err) return String((err as { exception: unknown }).exception);
  return err instanceof Error ? err.message : String(err);
}
