import type { ReadAt } from '../tiff/ifd-parser.js';
import { DicomSeriesError } from './errors.js';

/** Where one frame's bytes are, in the series' address space; several pieces when a frame spans fragments. */
export type FrameLocation = { offset: number; length: number }[];

const ITEM = 0xe000fffe; // (FFFE,E000) read as a little-endian uint32
const SEQUENCE_END = 0xe0ddfffe; // (FFFE,E0DD)
const SCAN_WINDOW = 1 << 20;

export interface EncapsulatedInput {
  readAt: ReadAt;
  /** The file's first byte, and its size: nothing outside [base, base + size) belongs to it. */
  base: number;
  size: number;
  /** File position of the Pixel Data value. */
  pixelDataOffset: number;
  frames: number;
  /** Extended Offset Table (offsets from the first fragment's item tag) and its lengths, when the file has them. */
  extended?: { offsets: number[]; lengths: number[] } | null;
  /** The first bytes of a compressed frame (JPEG SOI, JPEG 2000 SOC): a fragment starting so begins a new frame. */
  frameStart: Buffer;
}

/**
 * Finds each frame of encapsulated pixel data without reading the frames: from the Extended Offset Table when
 * present, else from the item headers (read through a 1 MiB window, so small frames cost one sequential read
 * and large ones one read each), grouped into frames by the Basic Offset Table, one fragment per frame, or the
 * codec's start marker.
 */
export async function encapsulatedFrames(input: EncapsulatedInput): Promise<FrameLocation[]> {
  const { readAt, base, size, pixelDataOffset, frames } = input;
  const end = base + size;
  const botHeader = await readAt(base + pixelDataOffset, 8);
  if (botHeader.length < 8) throw new DicomSeriesError('truncated');
  if (botHeader.readUInt32LE(0) !== ITEM) throw new DicomSeriesError('not_dicom', {}, 'no Basic Offset Table item');
  const botLength = botHeader.readUInt32LE(4);
  if (botLength % 4 !== 0 || pixelDataOffset + 8 + botLength > size) throw new DicomSeriesError('truncated');
  const first = base + pixelDataOffset + 8 + botLength;

  const { extended } = input;
  if (extended && extended.offsets.length === frames && extended.lengths.length === frames) {
    return extended.offsets.map((o, i) => {
      const offset = first + o + 8, length = extended.lengths[i];
      if (offset + length > end) throw new DicomSeriesError('truncated');
      return [{ offset, length }];
    });
  }

  const fragments = await scanFragments(readAt, first, end);
  if (fragments.length < frames) throw new DicomSeriesError('truncated', {}, `${fragments.length} fragments for ${frames} frames`);
  if (fragments.length === frames) return fragments.map((f) => [{ offset: f.offset, length: f.length }]);

  // More fragments than frames: find each frame's first fragment.
  let starts: number[];
  if (botLength >= frames * 4) {
    const bot = await readAt(base + pixelDataOffset + 8, frames * 4);
    const byItem = new Map(fragments.map((f, i) => [f.offset - 8 - first, i]));
    starts = Array.from({ length: frames }, (_, i) => byItem.get(bot.readUInt32LE(i * 4)) ?? -1);
  } else {
    starts = [];
    for (let i = 0; i < fragments.length; i++) if (fragments[i].startsFrame) starts.push(i);
  }
  if (frames === 1) starts = [0];
  if (starts.length !== frames || starts.some((s, i) => s < 0 || (i > 0 && s <= starts[i - 1]))) {
    throw new DicomSeriesError('truncated', {}, 'fragments do not divide into the declared frames');
  }
  return starts.map((s, i) => fragments.slice(s, i + 1 < starts.length ? starts[i + 1] : fragments.length).map(({ offset, length }) => ({ offset, length })));

  async function scanFragments(read: ReadAt, from: number, to: number) {
    const found: { offset: number; length: number; startsFrame: boolean }[] = [];
    let window: Buffer = Buffer.alloc(0), windowAt = 0;
    const bytesAt = async (pos: number, n: number) => {
      if (pos < windowAt || pos + n > windowAt + window.length) {
        window = await read(pos, Math.max(n, Math.min(SCAN_WINDOW, to - pos)));
        windowAt = pos;
      }
      return window.subarray(pos - windowAt, pos - windowAt + n);
    };
    const marker = input.frameStart.length;
    for (let pos = from; ;) {
      if (pos + 8 > to) throw new DicomSeriesError('truncated', {}, 'pixel data ends without a sequence delimiter');
      const header = await bytesAt(pos, 8);
      if (header.length < 8) throw new DicomSeriesError('truncated');
      const tag = header.readUInt32LE(0), length = header.readUInt32LE(4);
      if (tag === SEQUENCE_END) return found;
      if (tag !== ITEM) throw new DicomSeriesError('truncated', {}, `unexpected tag at ${pos}`);
      if (pos + 8 + length > to) throw new DicomSeriesError('truncated', {}, 'fragment runs past the end of the file');
      // Only when there are more fragments than frames does a fragment's first bytes matter; reading them is cheap in the window.
      const startsFrame = length >= marker && (await bytesAt(pos + 8, marker)).equals(input.frameStart);
      found.push({ offset: pos + 8, length, startsFrame });
      if (found.length > MAX_FRAGMENTS) throw new DicomSeriesError('too_many_frames', { limit: MAX_FRAGMENTS });
      pos += 8 + length;
    }
  }
}

/** A bound on fragments per instance: a header may lie about its frames, the scan must stop somewhere. */
export const MAX_FRAGMENTS = 4_000_000;

/** Native (uncompressed) frames lie back to back in the Pixel Data value. */
export function nativeFrames(base: number, size: number, pixelDataOffset: number, pixelDataLength: number | null, frames: number, frameBytes: number): FrameLocation[] {
  const needed = frames * frameBytes;
  if (pixelDataLength !== null && pixelDataLength < needed) throw new DicomSeriesError('truncated');
  if (pixelDataOffset + needed > size) throw new DicomSeriesError('truncated');
  return Array.from({ length: frames }, (_, i) => [{ offset: base + pixelDataOffset + i * frameBytes, length: frameBytes }]);
}
