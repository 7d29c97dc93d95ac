import type { AssociatedImage, Level, SlideIndex } from '../slide-index.js';
import type { ReadAt } from '../tiff/ifd-parser.js';
import { Compression, Photometric } from '../tiff/tags.js';
import { DicomSeriesError } from './errors.js';
import { readWsiInstance, type WsiInstance } from './instance.js';

/** JPEG 2000 in TIFF's registry (34712); our levels use TIFF compression codes whatever the container. */
export const COMPRESSION_JPEG2000 = 34712;

/** One file of a series in the series' address space (see series-files). */
export interface SeriesPart {
  name: string;
  base: number;
  size: number;
}

const PARALLEL_READS = 8;
const ASSOCIATED: Record<Exclude<WsiInstance['flavor'], 'VOLUME'>, AssociatedImage['name']> = { LABEL: 'label', OVERVIEW: 'macro', THUMBNAIL: 'thumbnail' };

/**
 * Indexes the instances of one DICOM whole-slide series as a pyramid: each distinct total pixel matrix of the
 * VOLUME instances is a level (several instances of one size, e.g. a concatenation, share a grid), LABEL,
 * OVERVIEW and THUMBNAIL instances are the associated images. Files of another series, or that are not
 * whole-slide images, make the whole set refused: a series is imported whole or not at all.
 */
export async function readDicomSeriesIndex(readAt: ReadAt, parts: SeriesPart[]): Promise<SlideIndex> {
  if (parts.length === 0) throw new DicomSeriesError('no_volume');
  const instances: WsiInstance[] = new Array(parts.length);
  for (let i = 0; i < parts.length; i += PARALLEL_READS) {
    await Promise.all(parts.slice(i, i + PARALLEL_READS).map(async (p, j) => {
      try {
        instances[i + j] = await readWsiInstance(readAt, p.base, p.size);
      } catch (err) {
        if (err instanceof DicomSeriesError) err.params.file ??= p.name;
        throw err;
      }
    }));
  }
  const series = new Set(instances.map((s) => s.seriesUid));
  if (series.size > 1) throw new DicomSeriesError('mixed_series', { count: series.size });

  const volumes = instances.filter((s) => s.flavor === 'VOLUME');
  if (volumes.length === 0) throw new DicomSeriesError('no_volume');
  const bySize = new Map<string, WsiInstance[]>();
  for (const v of volumes) {
    const key = `${v.totalWidth}x${v.totalHeight}`;
    bySize.set(key, [...(bySize.get(key) ?? []), v]);
  }
  const groups = [...bySize.values()].sort((a, b) => b[0].totalWidth - a[0].totalWidth);
  const base = groups[0][0];
  const levels = groups.map((g) => toLevel(g, base.totalWidth / g[0].totalWidth));
  const associated: AssociatedImage[] = instances.filter((s) => s.flavor !== 'VOLUME').map((s) => ({
    name: ASSOCIATED[s.flavor as keyof typeof ASSOCIATED], width: s.totalWidth, height: s.totalHeight, page: -1, tiles: toLevel([s], 1),
  }));
  // Several labels (or overviews) would all claim one name: the first one is served.
  const named = associated.filter((a, i) => associated.findIndex((b) => b.name === a.name) === i);
  const spacing = groups[0].find((g) => g.pixelSpacing)?.pixelSpacing ?? null;
  return {
    width: base.totalWidth,
    height: base.totalHeight,
    levels,
    associated: named,
    vendor: 'dicom',
    mppY: spacing ? spacing[0] * 1000 : null,
    mppX: spacing ? spacing[1] * 1000 : null,
    appMag: volumes.find((v) => v.objectivePower)?.objectivePower ?? null,
    bigTiff: false,
    scanAt: volumes.find((v) => v.acquiredAt)?.acquiredAt ?? null,
  };
}

/** The instances of one size as one tiled level; a tile no frame covers is one the scanner skipped (blank glass). */
function toLevel(group: WsiInstance[], downsample: number): Level {
  const first = group[0];
  for (const g of group) {
    if (g.tileWidth !== first.tileWidth || g.tileHeight !== first.tileHeight || g.codec !== first.codec || g.photometric !== first.photometric) {
      throw new DicomSeriesError('bad_geometry', { width: g.totalWidth, height: g.totalHeight, tile: `${g.tileWidth}×${g.tileHeight}` });
    }
  }
  const across = Math.ceil(first.totalWidth / first.tileWidth), down = Math.ceil(first.totalHeight / first.tileHeight);
  const tileOffsets = new Float64Array(across * down), tileByteCounts = new Float64Array(across * down);
  const fragmentedTiles = new Map<number, { offset: number; length: number }[]>();
  for (const g of group) {
    for (const { col, row, frame } of g.tiles) {
      const i = row * across + col;
      if (tileByteCounts[i] > 0) continue;
      tileOffsets[i] = frame[0].offset;
      tileByteCounts[i] = frame.reduce((n, f) => n + f.length, 0);
      if (frame.length > 1) fragmentedTiles.set(i, frame);
    }
  }
  return {
    width: first.totalWidth,
    height: first.totalHeight,
    tileWidth: first.tileWidth,
    tileHeight: first.tileHeight,
    tilesAcross: across,
    tilesDown: down,
    downsample,
    compression: first.codec === 'jpeg' ? Compression.Jpeg : first.codec === 'jpeg2000' ? COMPRESSION_JPEG2000 : Compression.None,
    photometric: photometricCode(first),
    samplesPerPixel: first.samplesPerPixel,
    bitsPerSample: 8,
    jpegTables: null,
    tileOffsets,
    tileByteCounts,
    page: -1,
    ...(fragmentedTiles.size > 0 ? { fragmentedTiles } : {}),
    ...(first.planar ? { planar: true } : {}),
  };
}

/**
 * TIFF photometric codes for the tile reader. DICOM's RGB JPEG frames carry no colour-transform marker, so they
 * are marked RGB (the reader adds Adobe's "no transform" marker, as for Aperio); YBR_FULL(_422) JPEG is what
 * decoders assume. Uncompressed YBR_FULL frames are converted to RGB when decoded.
 */
function photometricCode(s: WsiInstance): number {
  if (s.samplesPerPixel === 1) return Photometric.MinIsBlack;
  if (s.photometric === 'RGB' && !(s.codec === 'jpeg' && s.jpegMarksColour)) return Photometric.Rgb;
  return Photometric.YCbCr;
}
