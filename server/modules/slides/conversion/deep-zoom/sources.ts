import { Readable } from 'node:stream';
import fs from 'node:fs/promises';
import path from 'node:path';
import yauzl from 'yauzl';
import { DeepZoomError, tileCoordinates } from './descriptor.js';

/** A Deep Zoom image's files, wherever they are: the descriptor, and tiles read one at a time. */
export interface DeepZoomSource {
  descriptor: string;
  /** The stored bytes of tile (col, row) of `level`, or null when there is no such file. */
  tile(level: number, col: number, row: number, format: string): Promise<Buffer | null>;
  /** Which tiles of `level` are there, as (col, row), read from names only: nothing is inflated. */
  tiles(level: number, format: string): Promise<[number, number][]>;
  close(): Promise<void>;
}

/** A descriptor or a tile larger than this is not a Deep Zoom file (and would only fill memory). */
const MAX_DESCRIPTOR_BYTES = 1 << 20;
const MAX_TILE_BYTES = 32 << 20;

/**
 * A `.zip` holding `name.dzi` and `name_files/{level}/{col}_{row}.{format}`, at its root or in a folder.
 * Only the central directory is read up front; each tile is inflated from the file when asked for.
 * Entry names are checked as yauzl's validateFileName does (no absolute paths, `..` or backslashes):
 * nothing is extracted to disk, but a zip naming such paths was made to attack unzippers and is refused.
 */
export async function openZipSource(file: string): Promise<DeepZoomSource> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, strictFileNames: true });
  } catch (err) {
    throw new DeepZoomError('zip_not_deep_zoom', `not a readable zip: ${(err as Error).message}`);
  }
  try {
    const entries = new Map<string, yauzl.Entry>();
    for await (const entry of zip.eachEntry()) {
      const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
      const unsafe = yauzl.validateFileName(name);
      if (unsafe) throw new DeepZoomError('zip_unsafe_path', unsafe);
      if (!name.endsWith('/')) entries.set(name, entry);
    }
    // macOS adds `__MACOSX/…/._name.dzi` resource forks beside the real files.
    const descriptors = [...entries.keys()].filter((n) => /\.dzi$/i.test(n) && !n.split('/').some((p) => p === '__MACOSX' || p.startsWith('._')));
    if (descriptors.length === 0) throw new DeepZoomError('zip_not_deep_zoom', 'no .dzi file in the zip');
    if (descriptors.length > 1) throw new DeepZoomError('dzi_unreadable', `${descriptors.length} .dzi files in one zip`);
    const prefix = `${descriptors[0].slice(0, -'.dzi'.length)}_files/`;
    const read = async (entry: yauzl.Entry, limit: number) => {
      if (entry.uncompressedSize > limit) throw new DeepZoomError('dzi_unreadable', `${entry.uncompressedSize}-byte entry`);
      return collect(await zip.openReadStreamPromise(entry));
    };
    const descriptor = (await read(entries.get(descriptors[0])!, MAX_DESCRIPTOR_BYTES)).toString('utf8');
    return {
      descriptor,
      async tile(level, col, row, format) {
        const entry = entries.get(`${prefix}${level}/${col}_${row}.${format}`);
        return entry ? read(entry, MAX_TILE_BYTES) : null;
      },
      async tiles(level, format) {
        const folder = `${prefix}${level}/`;
        return [...entries.keys()].filter((n) => n.startsWith(folder)).map((n) => tileCoordinates(n.slice(folder.length), format)).filter((t) => t !== null);
      },
      close: async () => zip.close(),
    };
  } catch (err) {
    zip.close();
    if (err instanceof DeepZoomError) throw err;
    throw new DeepZoomError('dzi_unreadable', (err as Error).message);
  }
}

/** `name.dzi` with its `name_files/` folder beside it, on disk. */
export async function openFolderSource(file: string): Promise<DeepZoomSource> {
  const stat = await fs.stat(file);
  if (stat.size > MAX_DESCRIPTOR_BYTES) throw new DeepZoomError('dzi_unreadable', `${stat.size}-byte descriptor`);
  const folder = `${file.slice(0, -path.extname(file).length)}_files`;
  if (!(await fs.stat(folder).catch(() => null))?.isDirectory()) throw new DeepZoomError('dzi_unreadable', `no ${path.basename(folder)} folder`);
  return {
    descriptor: await fs.readFile(file, 'utf8'),
    async tile(level, col, row, format) {
      // Every path part is a number we made: the folder cannot be left.
      const tile = path.join(folder, String(level), `${col}_${row}.${format}`);
      const size = (await fs.stat(tile).catch(() => null))?.size;
      if (size === undefined) return null;
      if (size > MAX_TILE_BYTES) throw new DeepZoomError('dzi_unreadable', `${size}-byte tile`);
      return fs.readFile(tile);
    },
    async tiles(level, format) {
      const names = await fs.readdir(path.join(folder, String(level))).catch(() => []);
      return names.map((n) => tileCoordinates(n, format)).filter((t) => t !== null);
    },
    close: async () => {},
  };
}

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
