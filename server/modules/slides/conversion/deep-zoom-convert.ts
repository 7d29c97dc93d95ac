import path from 'node:path';
import { AppError } from '../../../http/errors.js';
import { checkTilesPresent, checkWorkingMemory, DeepZoomError, dziLevelCount, parseDziDescriptor } from './deep-zoom/descriptor.js';
import { openFolderSource, openZipSource, type DeepZoomSource } from './deep-zoom/sources.js';
import { deepZoomToTiff } from './deep-zoom/to-tiff.js';
import { convertedName } from './derived-names.js';

/** Deep Zoom images (checked at bind) are converted in this process by our own writer, not by libvips. */
export const DEEP_ZOOM_EXTENSIONS = new Set(['.zip', '.dzi']);

/**
 * Whether a Deep Zoom image may be converted, without converting it (bind answers at once; a job converts): its
 * descriptor read, its size within the limits and its tiles all there. Throws as convertDeepZoom does.
 */
export async function checkDeepZoom(file: string): Promise<void> {
  await withDeepZoom(file, async (source) => {
    const d = parseDziDescriptor(source.descriptor);
    checkWorkingMemory(d, 256);
    checkTilesPresent(d, await source.tiles(dziLevelCount(d) - 1, d.format));
  });
}

/**
 * A Deep Zoom image, as a `.zip` or as a `.dzi` beside its `_files` folder, written as the pyramid beside it. Throws
 * DeepZoomError when it is not one, and a 422 when it declares more than it may or than its tiles hold: refused
 * before anything is allocated.
 */
export async function convertDeepZoom(file: string): Promise<string> {
  const out = convertedName(file);
  await withDeepZoom(file, (source) => deepZoomToTiff(source, out));
  return out;
}

async function withDeepZoom<T>(file: string, use: (source: DeepZoomSource) => Promise<T>): Promise<T> {
  const source = path.extname(file).toLowerCase() === '.dzi' ? await openFolderSource(file) : await openZipSource(file);
  try {
    return await use(source);
  } catch (err) {
    if (err instanceof DeepZoomError && err.refused) throw new AppError(422, err.refused.key, err.refused.params);
    throw err;
  } finally {
    await source.close();
  }
}
