import fs from 'node:fs/promises';
import { FieldType, Tag } from './tags.js';

/** A directory entry to write: `offsets` become LONG in classic TIFF and LONG8 in BigTIFF. */
export type EntrySpec =
  | { tag: number; type: 'short' | 'long' | 'offsets'; values: ArrayLike<number> }
  | { tag: number; type: 'rational'; values: [numerator: number, denominator: number][] }
  | { tag: number; type: 'ascii'; value: string }
  | { tag: number; type: 'undefined'; value: Buffer };

const HEADER_BYTES = 16;
const FLUSH_BYTES = 4 * 1024 * 1024;
const CLASSIC_LIMIT = 2 ** 32 - 1;

/**
 * Streams image data into a TIFF and writes the directories last, when every offset is known.
 * Space for a BigTIFF header is reserved up front, so whether the file becomes classic TIFF or BigTIFF
 * is decided at the end from its real size. Memory stays bounded by the flush buffer plus the tables.
 */
export class TiffWriter {
  private position = HEADER_BYTES;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private directories: { entries: EntrySpec[]; subIfds: EntrySpec[][] }[] = [];

  private constructor(private readonly fh: fs.FileHandle) {}

  static async create(file: string): Promise<TiffWriter> {
    const fh = await fs.open(file, 'w');
    await fh.write(Buffer.alloc(HEADER_BYTES), 0, HEADER_BYTES, 0);
    return new TiffWriter(fh);
  }

  /** Appends a block (a tile, a strip) and returns its file offset. */
  async append(data: Buffer): Promise<number> {
    const at = this.position;
    this.pending.push(data);
    this.pendingBytes += data.length;
    this.position += data.length;
    if (this.pendingBytes >= FLUSH_BYTES) await this.flush();
    return at;
  }

  /**
   * Directories are chained in the order they are added; the first is the main image. `subIfds` hang from
   * this directory through a SubIFDs tag (how OME-TIFF stores its pyramid levels).
   */
  addDirectory(entries: EntrySpec[], subIfds: EntrySpec[][] = []): void {
    const sorted = (list: EntrySpec[]) => [...list].sort((a, b) => a.tag - b.tag);
    this.directories.push({ entries: sorted(entries), subIfds: subIfds.map(sorted) });
  }

  /** Writes the directories and the header; `bigTiff` 'auto' picks BigTIFF only when offsets would not fit in 32 bits. */
  async finish(bigTiff: boolean | 'auto' = 'auto'): Promise<{ bytes: number; bigTiff: boolean }> {
    await this.flush();
    const classicFits = this.position + this.directoryBytes(false) < CLASSIC_LIMIT;
    const big = bigTiff === 'auto' ? !classicFits : bigTiff;
    if (!big && !classicFits) throw new Error('image too large for classic TIFF');

    if (this.position % 2) await this.append(Buffer.alloc(1));
    // Each top-level directory is preceded by its SubIFDs, so their offsets are known when it is encoded;
    // a directory's size does not depend on the offsets it holds, so the layout is computed first.
    const layout: { children: number[]; at: number }[] = [];
    let at = this.position;
    for (const dir of this.directories) {
      const children = dir.subIfds.map((entries) => {
        const here = at;
        at += encodeDirectory(entries, 0, big, 0).length;
        return here;
      });
      layout.push({ children, at });
      at += encodeDirectory(withSubIfds(dir.entries, children), 0, big, 0).length;
    }
    const first = layout[0]?.at ?? this.position;
    const blocks: Buffer[] = [];
    this.directories.forEach((dir, i) => {
      const { children } = layout[i];
      dir.subIfds.forEach((entries, k) => blocks.push(encodeDirectory(entries, children[k], big, 0)));
      blocks.push(encodeDirectory(withSubIfds(dir.entries, children), layout[i].at, big, layout[i + 1]?.at ?? 0));
    });
    for (const b of blocks) await this.append(b);
    await this.flush();

    const header = Buffer.alloc(HEADER_BYTES);
    header.write('II', 0, 'latin1');
    if (big) {
      header.writeUInt16LE(43, 2);
      header.writeUInt16LE(8, 4);
      header.writeBigUInt64LE(BigInt(first), 8);
    } else {
      header.writeUInt16LE(42, 2);
      header.writeUInt32LE(first, 4);
    }
    await this.fh.write(header, 0, HEADER_BYTES, 0);
    await this.fh.close();
    return { bytes: this.position, bigTiff: big };
  }

  /** Closes without finishing (after a failure); the caller removes the file. */
  async abort(): Promise<void> {
    await this.fh.close().catch(() => {});
  }

  private async flush(): Promise<void> {
    if (!this.pending.length) return;
    const chunks = this.pending;
    const start = this.position - this.pendingBytes;
    this.pending = [];
    this.pendingBytes = 0;
    await this.fh.writev(chunks, start);
  }

  private directoryBytes(big: boolean): number {
    return this.directories.reduce((n, dir) => n
      + dir.subIfds.reduce((m, entries) => m + encodeDirectory(entries, 0, big, 0).length, 0)
      + encodeDirectory(withSubIfds(dir.entries, dir.subIfds.map(() => 0)), 0, big, 0).length, 0);
  }
}

/** The directory's entries plus a SubIFDs tag pointing at `children`, in tag order. */
function withSubIfds(entries: EntrySpec[], children: number[]): EntrySpec[] {
  if (!children.length) return entries;
  return [...entries, { tag: Tag.SubIFDs, type: 'offsets' as const, values: children }].sort((a, b) => a.tag - b.tag);
}

/** One directory followed by its out-of-line values; `at` is where the block will land in the file, `next` the next directory (0: none). */
function encodeDirectory(entries: EntrySpec[], at: number, big: boolean, next: number): Buffer {
  const entrySize = big ? 20 : 12;
  const inlineSize = big ? 8 : 4;
  const head = (big ? 8 : 2) + entries.length * entrySize + (big ? 8 : 4);
  const encoded = entries.map((e) => encodeValue(e, big));
  let valuesAt = head;
  const layout = encoded.map(({ bytes }) => {
    if (bytes.length <= inlineSize) return -1;
    const off = valuesAt;
    valuesAt += bytes.length + (bytes.length % 2);
    return off;
  });
  const out = Buffer.alloc(valuesAt);
  let p = 0;
  if (big) { out.writeBigUInt64LE(BigInt(entries.length), 0); p = 8; } else { out.writeUInt16LE(entries.length, 0); p = 2; }
  encoded.forEach(({ type, count, bytes }, i) => {
    out.writeUInt16LE(entries[i].tag, p);
    out.writeUInt16LE(type, p + 2);
    if (big) out.writeBigUInt64LE(BigInt(count), p + 4); else out.writeUInt32LE(count, p + 4);
    const valueField = p + (big ? 12 : 8);
    if (layout[i] < 0) bytes.copy(out, valueField);
    else {
      if (big) out.writeBigUInt64LE(BigInt(at + layout[i]), valueField); else out.writeUInt32LE(at + layout[i], valueField);
      bytes.copy(out, layout[i]);
    }
    p += entrySize;
  });
  if (big) out.writeBigUInt64LE(BigInt(next), p); else out.writeUInt32LE(next, p);
  return out;
}

function encodeValue(e: EntrySpec, big: boolean): { type: number; count: number; bytes: Buffer } {
  switch (e.type) {
    case 'ascii': {
      const bytes = Buffer.from(`${e.value}\0`, 'latin1');
      return { type: FieldType.ASCII, count: bytes.length, bytes };
    }
    case 'undefined':
      return { type: FieldType.UNDEFINED, count: e.value.length, bytes: e.value };
    case 'rational': {
      const bytes = Buffer.alloc(e.values.length * 8);
      e.values.forEach(([n, d], i) => { bytes.writeUInt32LE(n, i * 8); bytes.writeUInt32LE(d, i * 8 + 4); });
      return { type: FieldType.RATIONAL, count: e.values.length, bytes };
    }
    case 'short': {
      const bytes = Buffer.alloc(e.values.length * 2);
      for (let i = 0; i < e.values.length; i++) bytes.writeUInt16LE(e.values[i], i * 2);
      return { type: FieldType.SHORT, count: e.values.length, bytes };
    }
    case 'long':
    case 'offsets': {
      const wide = e.type === 'offsets' && big;
      const bytes = Buffer.alloc(e.values.length * (wide ? 8 : 4));
      for (let i = 0; i < e.values.length; i++) {
        if (wide) bytes.writeBigUInt64LE(BigInt(e.values[i]), i * 8); else bytes.writeUInt32LE(e.values[i], i * 4);
      }
      return { type: wide ? FieldType.LONG8 : FieldType.LONG, count: e.values.length, bytes };
    }
  }
}
