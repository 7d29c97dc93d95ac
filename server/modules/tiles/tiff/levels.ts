import { SlideFormatError, type AssociatedImage, type Level, type SlideIndex } from '../slide-index.js';
import { parseImageDescription } from './description.js';
import { readTiffStructure, TagReader, type Ifd, type ReadAt } from './ifd-parser.js';
import { isOmeXml, parseOmeXml } from './ome-xml.js';
import { Compression, Photometric, ResolutionUnit, Tag } from './tags.js';

export type { AssociatedImage, Level, SlideIndex } from '../slide-index.js';

export class NotAPyramidError extends SlideFormatError {}

/**
 * Reads a TIFF's directories once and describes it as a pyramid plus associated images. Levels may be
 * top-level directories (SVS, libvips pyramids) or SubIFDs of the full-resolution one (OME-TIFF).
 */
export async function readSlideIndex(readAt: ReadAt): Promise<SlideIndex> {
  const structure = await readTiffStructure(readAt);
  const reader = new TagReader(readAt, structure.littleEndian, structure.bigTiff);
  const all = structure.ifds.flatMap((ifd) => [ifd, ...ifd.children]);

  const described = await Promise.all(all.map(async (ifd) => ({
    ifd,
    width: (await reader.number(ifd, Tag.ImageWidth)) ?? 0,
    height: (await reader.number(ifd, Tag.ImageLength)) ?? 0,
    tiled: ifd.entries.has(Tag.TileWidth) && ifd.entries.has(Tag.TileOffsets),
    subfileType: (await reader.number(ifd, Tag.NewSubfileType)) ?? 0,
    description: (await reader.string(ifd, Tag.ImageDescription)) ?? '',
  })));

  const base = described.find((d) => d.tiled && !isAssociated(d.description) && !(d.subfileType & 0x4));
  if (!base) throw new NotAPyramidError('no tiled image directory');
  const ome = isOmeXml(base.description) ? parseOmeXml(omeText(base.description)) : null;
  const omePages = new Set(ome?.associated.map((a) => a.page));

  // A pyramid level is tiled, not a mask or an associated image, and keeps the base's aspect ratio;
  // SVS thumbnails, labels and macros are stripped or say what they are in their description.
  const levelCandidates = described
    .filter((d) => d.tiled && d.width > 0 && d.height > 0 && !(d.subfileType & 0x4) && !isAssociated(d.description))
    .filter((d) => !(d.ifd.subifd < 0 && omePages.has(d.ifd.page)))
    .filter((d) => d.width <= base.width && d.height <= base.height)
    .filter((d) => Math.abs(d.width / d.height - base.width / base.height) < 0.02 * (base.width / base.height) + 2 / d.height);
  const unique = new Map<number, (typeof levelCandidates)[number]>();
  for (const d of levelCandidates) if (!unique.has(d.width)) unique.set(d.width, d);
  const ordered = [...unique.values()].sort((a, b) => b.width - a.width);

  const levels = await Promise.all(ordered.map((d) => readLevel(reader, d.ifd, d.width, d.height, base.width, base.height)));

  const associated: AssociatedImage[] = [];
  for (const [i, d] of described.entries()) {
    if (ordered.includes(d) || d.width === 0 || d.ifd.subifd >= 0) continue;
    const fromOme = ome?.associated.find((a) => a.page === d.ifd.page)?.name;
    const name = fromOme ?? associatedName(d.description) ?? (i === 1 && !d.tiled ? 'thumbnail' : null);
    if (name && !associated.some((a) => a.name === name)) associated.push({ name, width: d.width, height: d.height, page: d.ifd.page });
  }

  const resolution = await mppFromResolution(reader, base.ifd);
  if (ome) {
    return {
      width: base.width, height: base.height, levels, associated, vendor: 'ome-tiff',
      mppX: ome.mppX ?? resolution.x, mppY: ome.mppY ?? resolution.y, appMag: ome.appMag, bigTiff: structure.bigTiff, scanAt: ome.scanAt,
    };
  }
  const scan = parseImageDescription(base.description);
  return {
    width: base.width,
    height: base.height,
    levels,
    associated,
    vendor: scan.vendor ?? 'generic-tiff',
    mppX: scan.mpp ?? resolution.x,
    mppY: scan.mpp ?? resolution.y,
    appMag: scan.appMag,
    bigTiff: structure.bigTiff,
    scanAt: scan.scanAt,
  };
}

async function readLevel(reader: TagReader, ifd: Ifd, width: number, height: number, baseW: number, baseH: number): Promise<Level> {
  const tileWidth = (await reader.number(ifd, Tag.TileWidth)) ?? 0;
  const tileHeight = (await reader.number(ifd, Tag.TileLength)) ?? 0;
  if (tileWidth <= 0 || tileHeight <= 0) throw new NotAPyramidError('tile size missing');
  const tilesAcross = Math.ceil(width / tileWidth);
  const tilesDown = Math.ceil(height / tileHeight);
  const [tileOffsets, tileByteCounts, jpegTables] = await Promise.all([
    reader.numberArray(ifd, Tag.TileOffsets),
    reader.numberArray(ifd, Tag.TileByteCounts),
    reader.bytes(ifd, Tag.JPEGTables),
  ]);
  const planar = (await reader.number(ifd, Tag.PlanarConfiguration)) ?? 1;
  // Planar (separate) files store one tile grid per sample; only chunky (interleaved) data has one offset per tile.
  if (planar !== 1 || tileOffsets.length < tilesAcross * tilesDown || tileByteCounts.length < tilesAcross * tilesDown) {
    throw new NotAPyramidError(`level ${width}x${height}: tile table does not match the grid`);
  }
  return {
    width, height, tileWidth, tileHeight, tilesAcross, tilesDown,
    downsample: (baseW / width + baseH / height) / 2,
    compression: (await reader.number(ifd, Tag.Compression)) ?? Compression.None,
    photometric: (await reader.number(ifd, Tag.Photometric)) ?? Photometric.Rgb,
    samplesPerPixel: (await reader.number(ifd, Tag.SamplesPerPixel)) ?? 1,
    bitsPerSample: (await reader.number(ifd, Tag.BitsPerSample)) ?? 1,
    jpegTables: jpegTables ? Buffer.from(jpegTables) : null,
    tileOffsets, tileByteCounts,
    page: ifd.page,
    subifd: ifd.subifd,
  };
}

/** OME-XML is UTF-8 ("µm"), read like every TIFF string as latin1; a writer that used latin1 itself is kept as read. */
function omeText(latin1: string): string {
  const utf8 = Buffer.from(latin1, 'latin1').toString('utf8');
  return utf8.includes('\uFFFD') ? latin1 : utf8;
}

async function mppFromResolution(reader: TagReader, ifd: Ifd): Promise<{ x: number | null; y: number | null }> {
  const unit = (await reader.number(ifd, Tag.ResolutionUnit)) ?? ResolutionUnit.Inch;
  const micronsPerUnit = unit === ResolutionUnit.Centimetre ? 10_000 : unit === ResolutionUnit.Inch ? 25_400 : 0;
  const toMpp = (res: number | undefined) => (micronsPerUnit && res && res > 0 ? micronsPerUnit / res : null);
  // Many writers default to 72 dpi or 1 pixel per unit: that is "unknown", not a 350 µm pixel.
  const plausible = (mpp: number | null) => (mpp !== null && mpp < 100 ? mpp : null);
  return {
    x: plausible(toMpp(await reader.number(ifd, Tag.XResolution))),
    y: plausible(toMpp(await reader.number(ifd, Tag.YResolution))),
  };
}

function isAssociated(description: string): boolean {
  return associatedName(description) !== null;
}

function associatedName(description: string): AssociatedImage['name'] | null {
  // OME-XML may mention "label" anywhere; which directory is a label is read from its Image elements instead.
  if (isOmeXml(description)) return null;
  const d = description.toLowerCase();
  if (/(^|\n|\s)label(\s|$|\r)/.test(d)) return 'label';
  if (/(^|\n|\s)macro(\s|$|\r)/.test(d)) return 'macro';
  if (/^thumbnail\b/.test(d)) return 'thumbnail';
  return null;
}
