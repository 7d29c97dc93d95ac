/**
 * What every slide reader (TIFF/SVS/OME-TIFF, KFB) produces: a pyramid of tiled levels plus associated
 * images, described well enough that the tile reader and the Deep Zoom / IIIF services never need to
 * know which file format they are serving.
 */

/** One resolution of the pyramid, as stored: enough to find, merge and decode any tile without re-reading the file's index. */
export interface Level {
  width: number;
  height: number;
  tileWidth: number;
  tileHeight: number;
  tilesAcross: number;
  tilesDown: number;
  /** Level-0 pixels per pixel of this level (1 for level 0). */
  downsample: number;
  /** TIFF compression code (7 = JPEG, what every KFB tile is). */
  compression: number;
  photometric: number;
  samplesPerPixel: number;
  bitsPerSample: number;
  /** SOI … tables … EOI shared by every tile of the level (TIFF tag 347), or null when tiles carry their own. */
  jpegTables: Buffer | null;
  /** File offset and byte count of tile (col, row) at `row * tilesAcross + col`; a count of 0 is a tile the file lacks. */
  tileOffsets: Float64Array;
  tileByteCounts: Float64Array;
  /** libvips page of this directory, for decoding compressions we do not pass through; -1 when libvips cannot open it (KFB). */
  page: number;
  /** SubIFD index under `page` (OME-TIFF and libvips `subifd` pyramids); -1 or absent for a top-level directory. */
  subifd?: number;
  /**
   * Right and bottom edge tiles are stored at their true size (KFB), not padded to the tile size (TIFF):
   * such an edge tile is exactly the Deep Zoom edge tile when the level sizes match, and can pass through.
   */
  edgeTilesCropped?: boolean;
  /** Tiles whose bytes lie in several pieces (DICOM fragments), joined in order when read; by tile index. */
  fragmentedTiles?: Map<number, { offset: number; length: number }[]>;
  /** Uncompressed samples stored plane by plane (RRR…GGG…BBB…) rather than interleaved. */
  planar?: boolean;
}

export interface AssociatedImage {
  name: 'label' | 'macro' | 'thumbnail';
  width: number;
  height: number;
  /** libvips page holding the image; -1 when it is a JPEG stored inside the file (`jpeg`). */
  page: number;
  /** A complete JPEG at this place in the file (KFB associated blocks). */
  jpeg?: { offset: number; length: number };
  /** The image as tiles of its own (DICOM LABEL/OVERVIEW/THUMBNAIL instances), read like a pyramid level. */
  tiles?: Level;
}

export type SlideVendor = 'aperio' | 'generic-tiff' | 'ome-tiff' | 'kfbio' | 'dicom';

export interface SlideIndex {
  width: number;
  height: number;
  levels: Level[];
  associated: AssociatedImage[];
  vendor: SlideVendor;
  /** Microns per level-0 pixel. */
  mppX: number | null;
  mppY: number | null;
  appMag: number | null;
  bigTiff: boolean;
  /** When the slide was scanned (ISO 8601, as precise as the file says), null when unknown. */
  scanAt?: string | null;
}

/** The file is not a slide this server can read (bad header, broken tables, no pyramid). */
export class SlideFormatError extends Error {}
