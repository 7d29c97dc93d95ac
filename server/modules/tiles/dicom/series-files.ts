import fs from 'node:fs/promises';
import path from 'node:path';
import type { ReadAt } from '../tiff/ifd-parser.js';
import { DicomSeriesError } from './errors.js';
import type { SeriesPart } from './series-index.js';

/** One file of a series folder, with its place in the series' address space. */
export interface SeriesFile extends SeriesPart {
  path: string;
  mtimeMs: number;
  ino: number;
}

/** A series of more instances than this is not one slide (a pyramid has tens; label, overview, thumbnail a few more). */
export const MAX_INSTANCES = 2_000;

/**
 * The files of a series folder, in name order, laid end to end in one address space so that a tile's place is a
 * single number like in a TIFF (the file handle pool and tile reader need no notion of several files).
 * Hidden files, DICOMDIR and operating-system litter are not instances.
 */
export async function listSeriesFolder(dir: string): Promise<SeriesFile[]> {
  const names = (await fs.readdir(dir, { withFileTypes: true }))
    .filter((d) => d.isFile() && !d.name.startsWith('.') && d.name.toUpperCase() !== 'DICOMDIR' && d.name !== 'Thumbs.db')
    .map((d) => d.name)
    .sort();
  if (names.length > MAX_INSTANCES) throw new DicomSeriesError('too_many_instances', { count: names.length, limit: MAX_INSTANCES });
  const files: SeriesFile[] = [];
  let base = 0;
  for (const name of names) {
    const full = path.join(dir, name);
    const stat = await fs.stat(full);
    files.push({ name, path: full, base, size: stat.size, mtimeMs: stat.mtimeMs, ino: stat.ino });
    base += stat.size;
  }
  return files;
}

/** Reads of the series' address space, each sent to the file it falls in (a read never spans two instances' bytes usefully, but is split if it does). */
export function seriesReadAt(files: readonly SeriesFile[], readFile: (file: string, position: number, length: number) => Promise<Buffer>): ReadAt {
  const at = (position: number) => {
    let lo = 0, hi = files.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (files[mid].base <= position) lo = mid; else hi = mid - 1;
    }
    return lo;
  };
  const read: ReadAt = async (position, length) => {
    if (files.length === 0 || length <= 0) return Buffer.alloc(0);
    const f = files[at(position)];
    const local = position - f.base;
    if (local >= f.size) return Buffer.alloc(0);
    const inFile = Math.min(length, f.size - local);
    const head = await readFile(f.path, local, inFile);
    if (inFile === length || head.length < inFile) return head;
    return Buffer.concat([head, await read(position + inFile, length - inFile)]);
  };
  return read;
}
