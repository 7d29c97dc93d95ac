import path from 'node:path';
import sharp from 'sharp';
import { deepZoomToTiff } from './deep-zoom/to-tiff.js';
import { openFolderSource, openZipSource } from './deep-zoom/sources.js';

/**
 * Files the tile server cannot read as they are, converted once at ingest to a pyramidal JPEG TIFF
 * written beside the original (`photo.png` → `photo.png.tiff`), which is kept and deleted with the slide.
 */
export const convertedName = (file: string) => `${file}.tiff`;

const CONVERTED = /\.(jpe?g|png|tiff?|btf|zip|dzi)\.tiff$/i;

/** The original a converted TIFF was made from (`photo.png.tiff` → `photo.png`), or null. */
export const convertedFrom = (file: string) => (CONVERTED.test(file) ? file.slice(0, -'.tiff'.length) : null);

/** Everything a converted slide's original consists of: the file, and for a `.dzi` its `_files` folder too. */
export function originalParts(original: string): string[] {
  return /\.dzi$/i.test(original) ? [original, `${original.slice(0, -'.dzi'.length)}_files`] : [original];
}

/** Photos, scans of small fields and striped (untiled) TIFFs: libvips reads them whole and writes the pyramid. */
export async function convertWithLibvips(file: string): Promise<string> {
  const out = convertedName(file);
  await sharp(file, { limitInputPixels: false }).tiff({ tile: true, pyramid: true, compression: 'jpeg', quality: 90, tileWidth: 256, tileHeight: 256 }).toFile(out);
  return out;
}

/** A Deep Zoom image, as a `.zip` or as a `.dzi` beside its `_files` folder. Throws DeepZoomError when it is not one. */
export async function convertDeepZoom(file: string): Promise<string> {
  const source = path.extname(file).toLowerCase() === '.dzi' ? await openFolderSource(file) : await openZipSource(file);
  try {
    const out = convertedName(file);
    await deepZoomToTiff(source, out);
    return out;
  } finally {
    await source.close();
  }
}
