import { createHash } from 'node:crypto';
import { coversCase, directoryRestriction, type DirectoryHolder } from '../../../src/core/subspecialty.js';
import sharp, { type Sharp } from './vips.js';
import { AppError } from '../../http/errors.js';
import { dziGeometry, dziXml, planDziTile, type DziGeometry } from './dzi.js';
import { iiifAsDziTile, iiifInfo, type IiifRequest } from './iiif.js';
import { CONTENT_TYPES, encodeImage, readLevelPixels, renderRegion } from './render.js';
import type { SlideResolver } from './resolver.js';
import { SlideStore, type OpenedSlide, type RemoteLookup } from './slide-store.js';
import { TileCache, type CachedImage } from './tile-cache.js';
import { SlideFormatError } from './slide-index.js';
import { checkImagePixels, TileReader } from './tile-reader.js';

/** A label, macro or thumbnail page decoded whole for its JPEG: 100 megapixels is twenty times the largest macro we know. */
const MAX_ASSOCIATED_PIXELS = 100_000_000;

export interface TileServiceOptions {
  resolveSlide: SlideResolver;
  /** Bytes of finished tiles kept in memory. */
  cacheBytes?: number;
  /** Quality of tiles we have to encode ourselves (edges, missing levels, IIIF regions). */
  jpegQuality?: number;
  /** Slides in object storage (STORAGE_URL=s3://…), read through its block cache. */
  remote?: RemoteLookup;
}

export interface SlideHandle {
  slide: OpenedSlide;
  geometry: DziGeometry;
  /** The slide's hospital (slides table); undefined only from a resolver of bare files, and then nobody's (mayView). */
  hospitalId?: number;
  /** The subspecialty directory of the slide's case; null or undefined: every directory's. */
  subspecialtyId?: number | null;
}

/**
 * Spec §6: a slide is seen by users of its hospital (any of theirs, as its thumbnail is), never by another's, and,
 * when its case is filed under a subspecialty directory, only by users of that directory (src/core/subspecialty.ts).
 * A file of no hospital is nobody's: no image route or fast lane serves it (issue 27, files once read by name).
 */
export const mayView = (handle: Pick<SlideHandle, 'hospitalId' | 'subspecialtyId'>, viewer: DirectoryHolder & { hospitalIds: readonly number[] }): boolean =>
  handle.hospitalId !== undefined && viewer.hospitalIds.includes(handle.hospitalId) && coversCase(directoryRestriction(viewer), handle.subspecialtyId);

/**
 * A slide whose ingest or conversion has not finished: a clear 409, never half a file; whose hospital and directory
 * it is, so that those who may not see it get the 404 of a slide that does not exist (mayView).
 */
export class SlideProcessing extends AppError {
  constructor(readonly owner: Pick<SlideHandle, 'hospitalId' | 'subspecialtyId'>) {
    super(409, 'slide.processing');
  }
}

/** What the tile routes need, free of HTTP: find the slide, name each image (ETag), produce it (cached). */
export class TileService {
  readonly store: SlideStore;
  /** Stored and decoded tiles; the DICOM export reads through it so it shares the decoded-tile cache. */
  readonly reader = new TileReader();
  private readonly cache: TileCache;
  private readonly quality: number;
  private readonly geometries = new WeakMap<OpenedSlide, DziGeometry>();
  /** key → handle for `recentMs`: a panning viewer asks for the same slide ~50 times a second. */
  private readonly recent = new Map<string, { handle: SlideHandle; at: number }>();
  private readonly recentMs = 2_000;

  constructor(private readonly options: TileServiceOptions) {
    this.store = new SlideStore({ remote: options.remote });
    this.cache = new TileCache(options.cacheBytes ?? 256 * 2 ** 20);
    this.quality = options.jpegQuality ?? 90;
  }

  /** The handle of a slide opened moments ago, without a promise; undefined means call `open`. */
  peek(key: string): SlideHandle | undefined {
    const hit = this.recent.get(key);
    return hit && Date.now() - hit.at < this.recentMs ? hit.handle : undefined;
  }

  async open(key: string): Promise<SlideHandle> {
    const handle = await this.resolve(key);
    if (this.recent.size > 1000) this.recent.clear();
    this.recent.set(key, { handle, at: Date.now() });
    return handle;
  }

  private async resolve(key: string): Promise<SlideHandle> {
    const resolved = await this.options.resolveSlide(key);
    if (!resolved) throw new AppError(404, 'slide.not_found');
    if (typeof resolved !== 'string' && resolved.processing) throw new SlideProcessing({ hospitalId: resolved.hospitalId, subspecialtyId: resolved.subspecialtyId });
    const { file, hospitalId, subspecialtyId } = typeof resolved === 'string' ? { file: resolved, hospitalId: undefined, subspecialtyId: undefined } : resolved;
    let slide: OpenedSlide;
    try {
      slide = await this.store.open(file);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') throw new AppError(404, 'slide.not_found');
      if (err instanceof SlideFormatError) throw new AppError(422, 'tile.unreadable');
      throw err;
    }
    let geometry = this.geometries.get(slide);
    if (!geometry) {
      geometry = dziGeometry(slide.index);
      this.geometries.set(slide, geometry);
    }
    return { slide, geometry, hospitalId, subspecialtyId };
  }

  dziDescriptor({ geometry }: SlideHandle): string {
    return dziXml(geometry);
  }

  /** The ETag of a DZI tile, known before any byte is read, so a revalidation costs no I/O. */
  dziEtag({ slide }: SlideHandle, level: number, col: number, row: number): string {
    return `"${slide.identity}-${level}-${col}-${row}"`;
  }

  /** A cached tile without waiting for a promise: the common case while a viewer pans. */
  peekDziTile({ slide }: SlideHandle, level: number, col: number, row: number): CachedImage | undefined {
    return this.cache.get(`${slide.identity}/${level}/${col}/${row}`);
  }

  async dziTile({ slide, geometry }: SlideHandle, level: number, col: number, row: number): Promise<CachedImage> {
    const plan = planDziTile(slide.index, geometry, level, col, row);
    if (!plan) throw new AppError(404, 'tile.not_found');
    return this.cache.getOrProduce(`${slide.identity}/${level}/${col}/${row}`, async () => {
      if (plan.kind === 'stored') {
        return { body: await this.reader.storedJpeg(slide, plan.level, plan.col, plan.row), contentType: 'image/jpeg' };
      }
      const pixels = plan.aligned
        ? await readLevelPixels(this.reader, slide, plan.aligned.level, plan.aligned.x, plan.aligned.y, plan.width, plan.height)
        : await renderRegion(this.reader, slide, plan.rect, plan.width, plan.height);
      return { body: await encodeImage(pixels, { format: 'jpg', quality: this.quality }), contentType: 'image/jpeg' };
    });
  }

  iiifEtag({ slide }: SlideHandle, r: IiifRequest): string {
    return `"${slide.identity}-${createHash('sha1').update(iiifKey(r)).digest('hex').slice(0, 16)}"`;
  }

  async iiifImage(handle: SlideHandle, r: IiifRequest): Promise<CachedImage> {
    const asTile = iiifAsDziTile(handle.geometry, r);
    if (asTile) return this.dziTile(handle, asTile.level, asTile.col, asTile.row);
    const { slide } = handle;
    return this.cache.getOrProduce(`${slide.identity}/iiif/${iiifKey(r)}`, async () => {
      const pixels = await renderRegion(this.reader, slide, r.region, r.width, r.height);
      const body = await encodeImage(pixels, {
        format: r.format, quality: this.quality, gray: r.quality === 'gray', bitonal: r.quality === 'bitonal',
        rotation: r.rotation, mirror: r.mirror,
      });
      return { body, contentType: CONTENT_TYPES[r.format] };
    });
  }

  /**
   * Label, macro or thumbnail image stored beside the pyramid, as JPEG: a TIFF page (libvips decodes whatever
   * compression it has), a JPEG inside the file (KFB) or tiles of their own (DICOM), re-encoded so every answer is a baseline sRGB JPEG.
   */
  async associated(handle: SlideHandle, name: string): Promise<CachedImage> {
    const { slide } = handle;
    const image = slide.index.associated.find((a) => a.name === name);
    if (!image || !this.hasAssociated(handle, name)) throw new AppError(404, 'tile.not_found');
    return this.cache.getOrProduce(`${slide.identity}/associated/${name}`, async () => {
      let input: Sharp;
      if (image.tiles) {
        const pixels = await this.reader.readTiledImage(slide, image.tiles, name);
        return { body: await encodeImage(pixels, { format: 'jpg', quality: this.quality }), contentType: 'image/jpeg' };
      }
      if (image.jpeg) {
        const bytes = await slide.readAt(image.jpeg.offset, image.jpeg.length);
        if (bytes.length < image.jpeg.length) throw new AppError(500, 'tile.read_failed');
        input = sharp(bytes);
      } else {
        // Decoded whole: a label or macro is a few megapixels; a page declaring more is refused, not decoded.
        checkImagePixels(image.width, image.height, MAX_ASSOCIATED_PIXELS);
        input = sharp(slide.file, { page: image.page, limitInputPixels: MAX_ASSOCIATED_PIXELS });
      }
      return { body: await input.toColourspace('srgb').jpeg({ quality: this.quality }).toBuffer(), contentType: 'image/jpeg' };
    });
  }

  /**
   * Whether `associated` can answer this image: a TIFF page is decoded by libvips from the file, which a slide in object
   * storage does not have locally (its pages would need the whole object staged): there, only JPEGs and tiles are.
   */
  hasAssociated({ slide }: SlideHandle, name: string): boolean {
    const image = slide.index.associated.find((a) => a.name === name);
    if (!image) return false;
    if (image.jpeg || image.tiles) return true;
    return image.page >= 0 && !slide.remote;
  }

  iiifInfo({ slide, geometry }: SlideHandle, id: string) {
    return iiifInfo(id, geometry, slide.index.levels);
  }

  close(): void {
    this.store.close();
  }
}

function iiifKey(r: IiifRequest): string {
  const { x, y, width, height } = r.region;
  return `${x},${y},${width},${height}/${r.width},${r.height}/${r.mirror ? '!' : ''}${r.rotation}/${r.quality}.${r.format}`;
}
