import { SlideFormatError } from '../slide-index.js';
import { FIELD_SIZE, FieldType, Tag } from './tags.js';

/** Reads `length` bytes at `position`; shorter only at the end of the file. */
export type ReadAt = (position: number, length: number) => Promise<Buffer>;

/** One directory entry; values are read on demand so an unused ICC profile or XMP packet costs nothing. */
export interface IfdEntry {
  tag: number;
  type: number;
  count: number;
  /** Where the value lives: inside the entry (inline) or at this file offset. */
  valueOffset: number;
  inline: Buffer | null;
}

export interface Ifd {
  /** File offset of the directory, which identifies it. */
  offset: number;
  /** Position among the top-level directories (what libvips calls the page); a SubIFD has its parent's. */
  page: number;
  /** Index among the parent's SubIFDs (libvips `subifd`); -1 for a top-level directory. */
  subifd: number;
  entries: Map<number, IfdEntry>;
  /** SubIFDs hanging from this directory (OME-TIFF and libvips `subifd` pyramids keep levels there). */
  children: Ifd[];
}

export interface TiffStructure {
  littleEndian: boolean;
  bigTiff: boolean;
  ifds: Ifd[];
}

/** Malformed files must not make the reader loop or allocate without bound. */
const MAX_IFDS = 4096;
const MAX_ENTRIES = 4096;
const MAX_VALUE_BYTES = 64 * 1024 * 1024;

export class TiffFormatError extends SlideFormatError {}

/**
 * Reads the header and every directory of a TIFF or BigTIFF, in either byte order, without touching
 * pixel data. Values are fetched later through `TagReader`, and only those a caller asks for.
 */
export async function readTiffStructure(readAt: ReadAt): Promise<TiffStructure> {
  const header = await readAt(0, 16);
  if (header.length < 8) throw new TiffFormatError('file too short for a TIFF header');
  const order = header.toString('latin1', 0, 2);
  if (order !== 'II' && order !== 'MM') throw new TiffFormatError('not a TIFF (bad byte order mark)');
  const le = order === 'II';
  const u16 = (b: Buffer, o: number) => (le ? b.readUInt16LE(o) : b.readUInt16BE(o));
  const magic = u16(header, 2);
  let bigTiff: boolean;
  let first: number;
  if (magic === 42) {
    bigTiff = false;
    first = le ? header.readUInt32LE(4) : header.readUInt32BE(4);
  } else if (magic === 43) {
    if (header.length < 16 || u16(header, 4) !== 8) throw new TiffFormatError('unsupported BigTIFF offset size');
    bigTiff = true;
    first = readU64(header, 8, le);
  } else {
    throw new TiffFormatError(`not a TIFF (magic ${magic})`);
  }

  const reader = new TagReader(readAt, le, bigTiff);
  const seen = new Set<number>();
  const ifds: Ifd[] = [];
  let next = first;
  while (next !== 0) {
    if (seen.has(next) || seen.size >= MAX_IFDS) throw new TiffFormatError('directory chain loops or is too long');
    const { ifd, nextOffset } = await reader.readIfd(next, ifds.length, seen);
    ifds.push(ifd);
    next = nextOffset;
  }
  if (ifds.length === 0) throw new TiffFormatError('TIFF has no image directory');
  return { littleEndian: le, bigTiff, ifds };
}

/** Decodes directory entries and their values for one file (byte order and offset width fixed). */
export class TagReader {
  constructor(readonly readAt: ReadAt, readonly le: boolean, readonly bigTiff: boolean) {}

  async readIfd(offset: number, page: number, seen: Set<number>, subifd = -1): Promise<{ ifd: Ifd; nextOffset: number }> {
    seen.add(offset);
    const countSize = this.bigTiff ? 8 : 2;
    const entrySize = this.bigTiff ? 20 : 12;
    const offSize = this.bigTiff ? 8 : 4;
    const head = await this.readAt(offset, countSize);
    if (head.length < countSize) throw new TiffFormatError('directory offset beyond end of file');
    const n = this.bigTiff ? readU64(head, 0, this.le) : this.u16(head, 0);
    if (n === 0 || n > MAX_ENTRIES) throw new TiffFormatError(`implausible directory entry count ${n}`);
    const body = await this.readAt(offset + countSize, n * entrySize + offSize);
    if (body.length < n * entrySize + offSize) throw new TiffFormatError('directory truncated');

    const entries = new Map<number, IfdEntry>();
    for (let i = 0; i < n; i++) {
      const p = i * entrySize;
      const tag = this.u16(body, p);
      const type = this.u16(body, p + 2);
      const count = this.bigTiff ? readU64(body, p + 4, this.le) : this.u32(body, p + 4);
      const valueField = body.subarray(p + (this.bigTiff ? 12 : 8), p + entrySize);
      const size = (FIELD_SIZE[type] ?? 0) * count;
      // Unknown field types are skipped, as TIFF 6 asks readers to do.
      if (!FIELD_SIZE[type]) continue;
      const inline = size <= offSize;
      entries.set(tag, {
        tag, type, count,
        valueOffset: inline ? -1 : this.bigTiff ? readU64(valueField, 0, this.le) : this.u32(valueField, 0),
        inline: inline ? Buffer.from(valueField.subarray(0, size)) : null,
      });
    }
    const nextOffset = this.bigTiff ? readU64(body, n * entrySize, this.le) : this.u32(body, n * entrySize);
    const ifd: Ifd = { offset, page, subifd, entries, children: [] };

    const sub = entries.get(Tag.SubIFDs);
    if (sub) {
      for (const [i, childOffset] of (await this.numbers(ifd, Tag.SubIFDs)).entries()) {
        if (childOffset === 0 || seen.has(childOffset)) continue;
        ifd.children.push((await this.readIfd(childOffset, page, seen, i)).ifd);
      }
    }
    return { ifd, nextOffset };
  }

  /** The raw bytes of a value (in file byte order). */
  async bytes(ifd: Ifd, tag: number): Promise<Buffer | null> {
    const e = ifd.entries.get(tag);
    if (!e) return null;
    if (e.inline) return e.inline;
    const size = FIELD_SIZE[e.type] * e.count;
    if (size > MAX_VALUE_BYTES) throw new TiffFormatError(`tag ${tag} value too large (${size} bytes)`);
    const b = await this.readAt(e.valueOffset, size);
    if (b.length < size) throw new TiffFormatError(`tag ${tag} value truncated`);
    return b;
  }

  /** Numeric values of any integer, rational or floating type, as JS numbers (64-bit offsets stay exact below 2^53). */
  async numbers(ifd: Ifd, tag: number): Promise<number[]> {
    const e = ifd.entries.get(tag);
    const b = await this.bytes(ifd, tag);
    if (!e || !b) return [];
    const out = new Array<number>(e.count);
    const size = FIELD_SIZE[e.type];
    for (let i = 0; i < e.count; i++) out[i] = this.value(b, i * size, e.type);
    return out;
  }

  /** Like `numbers`, into a typed array: TileOffsets of a 100k-pixel-wide level has ~150,000 values. */
  async numberArray(ifd: Ifd, tag: number): Promise<Float64Array> {
    const e = ifd.entries.get(tag);
    const b = await this.bytes(ifd, tag);
    if (!e || !b) return new Float64Array(0);
    const out = new Float64Array(e.count);
    const size = FIELD_SIZE[e.type];
    for (let i = 0; i < e.count; i++) out[i] = this.value(b, i * size, e.type);
    return out;
  }

  async number(ifd: Ifd, tag: number): Promise<number | undefined> {
    return (await this.numbers(ifd, tag))[0];
  }

  /** ASCII values, without the terminating NUL (TIFF 6 allows several NUL-separated strings; they are joined by newlines). */
  async string(ifd: Ifd, tag: number): Promise<string | undefined> {
    const b = await this.bytes(ifd, tag);
    if (!b) return undefined;
    return b.toString('latin1').replace(/\0+$/, '').replace(/\0/g, '\n');
  }

  private value(b: Buffer, o: number, type: number): number {
    const le = this.le;
    switch (type) {
      case FieldType.BYTE: case FieldType.UNDEFINED: case FieldType.ASCII: return b[o];
      case FieldType.SBYTE: return b.readInt8(o);
      case FieldType.SHORT: return this.u16(b, o);
      case FieldType.SSHORT: return le ? b.readInt16LE(o) : b.readInt16BE(o);
      case FieldType.LONG: case FieldType.IFD: return this.u32(b, o);
      case FieldType.SLONG: return le ? b.readInt32LE(o) : b.readInt32BE(o);
      case FieldType.RATIONAL: { const d = this.u32(b, o + 4); return d === 0 ? 0 : this.u32(b, o) / d; }
      case FieldType.SRATIONAL: {
        const nu = le ? b.readInt32LE(o) : b.readInt32BE(o);
        const d = le ? b.readInt32LE(o + 4) : b.readInt32BE(o + 4);
        return d === 0 ? 0 : nu / d;
      }
      case FieldType.FLOAT: return le ? b.readFloatLE(o) : b.readFloatBE(o);
      case FieldType.DOUBLE: return le ? b.readDoubleLE(o) : b.readDoubleBE(o);
      case FieldType.LONG8: case FieldType.IFD8: return readU64(b, o, le);
      case FieldType.SLONG8: return Number(le ? b.readBigInt64LE(o) : b.readBigInt64BE(o));
      default: return 0;
    }
  }

  private u16(b: Buffer, o: number) { return this.le ? b.readUInt16LE(o) : b.readUInt16BE(o); }
  private u32(b: Buffer, o: number) { return this.le ? b.readUInt32LE(o) : b.readUInt32BE(o); }
}

function readU64(b: Buffer, o: number, le: boolean): number {
  const v = le ? b.readBigUInt64LE(o) : b.readBigUInt64BE(o);
  if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new TiffFormatError('64-bit offset beyond 2^53');
  return Number(v);
}
