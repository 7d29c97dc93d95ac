import { describe, expect, it } from 'vitest';
import { checkTilesPresent, checkWorkingMemory, DeepZoomError, DZI_LIMITS, parseDziDescriptor, tileCoordinates, type DziDescriptor } from './descriptor.js';

const dzi = (width: number, height: number, tile = 254) =>
  `<Image TileSize="${tile}" Overlap="1" Format="jpeg"><Size Width="${width}" Height="${height}"/></Image>`;
const d = (width: number, height: number, tileSize = 254): DziDescriptor => ({ tileSize, overlap: 1, format: 'jpeg', width, height });
const grid = (across: number, down: number) => Array.from({ length: across * down }, (_, i) => [i % across, Math.floor(i / across)] as [number, number]);
const refusal = (run: () => void) => {
  try {
    run();
  } catch (err) {
    expect(err).toBeInstanceOf(DeepZoomError);
    return (err as DeepZoomError).refused?.key;
  }
  throw new Error('not refused');
};

describe('Deep Zoom limits', () => {
  it('refuses a declared size beyond a side or the total, and accepts a whole slide within them', () => {
    expect(refusal(() => parseDziDescriptor(dzi(1_000_000, 1_000_000)))).toBe('slide.dzi_too_large');
    expect(refusal(() => parseDziDescriptor(dzi(DZI_LIMITS.side + 1, 10)))).toBe('slide.dzi_too_large');
    expect(refusal(() => parseDziDescriptor(dzi(220_000, 200_000)))).toBe('slide.dzi_too_large');
    expect(parseDziDescriptor(dzi(DZI_LIMITS.side, 100_000))).toMatchObject({ width: DZI_LIMITS.side, height: 100_000 });
  });

  it('wants exactly the full-size grid of tiles: none missing, none outside', () => {
    expect(() => checkTilesPresent(d(1100, 800), grid(5, 4))).not.toThrow();
    expect(refusal(() => checkTilesPresent(d(1100, 800), grid(5, 4).slice(1)))).toBe('slide.dzi_tiles_mismatch');
    expect(refusal(() => checkTilesPresent(d(1100, 800), [...grid(5, 4), [5, 0]]))).toBe('slide.dzi_tiles_mismatch');
    expect(refusal(() => checkTilesPresent(d(1_000_000, 1_000_000), [[0, 0]]))).toBe('slide.dzi_tiles_mismatch');
  });

  it('bounds the converter memory the declared width and tile size imply', () => {
    expect(() => checkWorkingMemory(d(DZI_LIMITS.side, 1000, 254), 256)).not.toThrow();
    expect(refusal(() => checkWorkingMemory(d(200_000, 200_000, 8192), 256))).toBe('slide.dzi_memory');
  });

  it('reads tile names the converter reads, and only those', () => {
    expect(tileCoordinates('3_12.jpeg', 'jpeg')).toEqual([3, 12]);
    expect(tileCoordinates('01_0.jpeg', 'jpeg')).toBeNull();
    expect(tileCoordinates('1_0.png', 'jpeg')).toBeNull();
    expect(tileCoordinates('._1_0.jpeg', 'jpeg')).toBeNull();
  });
});
