import fs from 'node:fs/promises';
import { promisify } from 'node:util';
import { deflate } from 'node:zlib';
import { Compression, FieldType, Photometric, Tag } from './tags.js';

const deflateAsync = promisify(deflate);

/** An RGB picture to add as a directory of its own (8 bits per sample, rows top to bottom). */
export interface StrippedImage { description: 'thumbnail' | 'label' | 'macro'; width: number; height: number; rgb: Buffer }

/**
 * Appends pictures to an existing TIFF or BigTIFF as stripped, deflate-compressed RGB directories at the end of
 * the directory chain, their ImageDescription saying what they are ("label", "macro" as Aperio marks them, and
 * "thumbnail": how `readSlideIndex` finds associated images). libvips' pyramid writer cannot add them; this touches nothing
 * already written except the last directory's next-directory offset. Call it on a file nobody reads yet.
 */
export async function appendStrippedImages(file: string, images: StrippedImage[]): Promise<void> {
  if (images.length === 0) return;
  const fh = await fs.open(file, 'r+');
  try {
    const header = Buffer.alloc(16);
    await fh.read(header, 0, 16, 0);
    if (header.toString('latin1', 0, 2) !== 'II') throw new Error('only little-endian TIFF is appended to');
    const big = header.readUInt16LE(2) === 43;
    if (!big && header.readUInt16LE(2) !== 42) throw new Error('not a TIFF');
    const io = big ? BIG : CLASSIC;
    // Walk to the last directory: its next-directory field is what the first new directory hangs from.
    let link = io.firstLinkAt;
    let next = io.readOffset(header, link);
    const seen = new Set<number>();
    while (next !== 0) {
      if (seen.has(next) || seen.size > 10_000) throw new Error('TIFF directory chain loops');
      seen.add(next);
      const countBytes = Buffer.alloc(io.countSize);
      await fh.read(countBytes, 0, io.countSize, next);
      const count = io.readCount(countBytes);
      link = next + io.countSize + count * io.entrySize;
      const nextBytes = Buffer.alloc(io.offsetSize);
      await fh.read(nextBytes, 0, io.offsetSize, link);
      next = io.readOffset(nextBytes, 0);
    }
    let end = (await fh.stat()).size;
    for (const image of images) {
      if (image.rgb.length !== image.width * image.height * 3) throw new Error('image size and pixels disagree');
      const strip = await deflateAsync(image.rgb);
      end += end % 2;
      const stripAt = end;
      await fh.write(strip, 0, strip.length, stripAt);
      end += strip.length;
      end += end % 2;
      if (!big && end + 1024 > 2 ** 32) throw new Error('classic TIFF would grow past 4 GiB');
      // A value longer than the entry's value field lives beside the directory (BitsPerSample in classic TIFF).
      const value = async (bytes: Buffer): Promise<Buffer> => {
        if (bytes.length <= io.offsetSize) return bytes;
        const at = end;
        await fh.write(bytes, 0, bytes.length, at);
        end += bytes.length + (bytes.length % 2);
        const pointer = Buffer.alloc(io.offsetSize);
        io.writeOffset(pointer, at);
        return pointer;
      };
      const short = (...v: number[]) => { const b = Buffer.alloc(2 * v.length); v.forEach((x, i) => b.writeUInt16LE(x, 2 * i)); return b; };
      const long = (v: number) => { const b = Buffer.alloc(4); b.writeUInt32LE(v); return b; };
      const offset = (v: number) => { const b = Buffer.alloc(io.offsetSize); io.writeOffset(b, v); return b; };
      const description = Buffer.from(`${image.description}\0`, 'latin1');
      const entries: [tag: number, type: number, count: number, value: Buffer][] = [
        [Tag.NewSubfileType, FieldType.LONG, 1, long(1)],
        [Tag.ImageWidth, FieldType.LONG, 1, long(image.width)],
        [Tag.ImageLength, FieldType.LONG, 1, long(image.height)],
        [Tag.BitsPerSample, FieldType.SHORT, 3, await value(short(8, 8, 8))],
        [Tag.Compression, FieldType.SHORT, 1, short(Compression.AdobeDeflate)],
        [Tag.Photometric, FieldType.SHORT, 1, short(Photometric.Rgb)],
        [Tag.ImageDescription, FieldType.ASCII, description.length, await value(description)],
        [Tag.StripOffsets, io.offsetType, 1, offset(stripAt)],
        [Tag.SamplesPerPixel, FieldType.SHORT, 1, short(3)],
        [Tag.RowsPerStrip, FieldType.LONG, 1, long(image.height)],
        [Tag.StripByteCounts, io.offsetType, 1, offset(strip.length)],
        [Tag.PlanarConfiguration, FieldType.SHORT, 1, short(1)],
      ];
      end += end % 2;
      const ifd = Buffer.alloc(io.countSize + entries.length * io.entrySize + io.offsetSize);
      io.writeCount(ifd, entries.length);
      entries.forEach(([tag, type, count, v], i) => io.writeEntry(ifd, io.countSize + i * io.entrySize, tag, type, count, v));
      const ifdAt = end;
      await fh.write(ifd, 0, ifd.length, ifdAt);
      end += ifd.length;
      // Hang the new directory from the previous one; the file stays valid after each step.
      const pointer = Buffer.alloc(io.offsetSize);
      io.writeOffset(pointer, ifdAt);
      await fh.write(pointer, 0, pointer.length, link);
      link = ifdAt + io.countSize + entries.length * io.entrySize;
    }
    await fh.sync();
  } finally {
    await fh.close();
  }
}

interface Layout {
  firstLinkAt: number; countSize: number; entrySize: number; offsetSize: number; offsetType: number;
  readOffset(b: Buffer, at: number): number;
  writeOffset(b: Buffer, value: number): void;
  readCount(b: Buffer): number;
  writeCount(b: Buffer, n: number): void;
  writeEntry(b: Buffer, at: number, tag: number, type: number, count: number, value: Buffer): void;
}

const CLASSIC: Layout = {
  firstLinkAt: 4, countSize: 2, entrySize: 12, offsetSize: 4, offsetType: FieldType.LONG,
  readOffset: (b, at) => b.readUInt32LE(at),
  writeOffset: (b, v) => b.writeUInt32LE(v, 0),
  readCount: (b) => b.readUInt16LE(0),
  writeCount: (b, n) => b.writeUInt16LE(n, 0),
  writeEntry(b, at, tag, type, count, value) {
    b.writeUInt16LE(tag, at); b.writeUInt16LE(type, at + 2); b.writeUInt32LE(count, at + 4);
    value.copy(b, at + 8);
  },
};

const BIG: Layout = {
  firstLinkAt: 8, countSize: 8, entrySize: 20, offsetSize: 8, offsetType: FieldType.LONG8,
  readOffset: (b, at) => Number(b.readBigUInt64LE(at)),
  writeOffset: (b, v) => b.writeBigUInt64LE(BigInt(v), 0),
  readCount: (b) => Number(b.readBigUInt64LE(0)),
  writeCount: (b, n) => b.writeBigUInt64LE(BigInt(n), 0),
  writeEntry(b, at, tag, type, count, value) {
    b.writeUInt16LE(tag, at); b.writeUInt16LE(type, at + 2); b.writeBigUInt64LE(BigInt(count), at + 4);
    value.copy(b, at + 12);
  },
};
