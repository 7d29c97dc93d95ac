/**
 * Byte layout of a KFBio `.kfb` slide, as summarised in shared/formats/KFB.md from a reverse-engineered
 * reader (never checked against a real file by us). One place for both the reader and the test-file
 * writer, so a change to the description is made once. All integers little-endian.
 */
export const KFB_MAGIC = 'KFB';
export const KFB_MAGIC_AT = 4;

export const Header = {
  tileCount: 16,
  height: 20,
  width: 24,
  scanScale: 28,
  /** 4 bytes starting `JP` (`JPG`, `JPEG`). */
  compression: 32,
  spendTime: 40,
  /** int64. */
  scanTime: 44,
  macroOffset: 52,
  labelOffset: 56,
  previewOffset: 60,
  tileTableOffset: 68,
  /** float32, microns per level-0 pixel ("ImageCapRes"). */
  mpp: 76,
  tileSize: 88,
} as const;
/** Bytes read for the header: every field above lies before this. */
export const HEADER_BYTES = 96;

/** An associated image block: a small header, then a complete JPEG. */
export const Block = { height: 8, width: 12, jpegLength: 20, jpegStart: 52 } as const;

/** One 64-byte entry of the tile table. */
export const Entry = { x: 4, y: 8, width: 12, height: 16, id: 20, jpegLength: 32, jpegOffset: 36 } as const;
export const ENTRY_BYTES = 64;
/** Entry ids fall by this much per level below the first entry's level 0. */
export const LEVEL_ID_STEP = 2 ** 23;
/** A tile's JPEG starts at T − 2^32 + v, T being the tile table's offset. */
export const TILE_OFFSET_BIAS = 2 ** 32;

/** Level count and sizes: ceil(log2(max side)) + 1 levels, level i floor(side / 2^i) but at least 1. */
export function kfbLevelSizes(width: number, height: number): { width: number; height: number }[] {
  const count = Math.ceil(Math.log2(Math.max(width, height))) + 1;
  return Array.from({ length: count }, (_, i) => ({
    width: Math.max(1, Math.floor(width / 2 ** i)),
    height: Math.max(1, Math.floor(height / 2 ** i)),
  }));
}
