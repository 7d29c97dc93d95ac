import path from 'node:path';

/** Where slide files and their thumbnails live under the data dir; one place so routes, hooks and seed agree. */
export const slidesRoot = (dataDir: string) => path.join(path.resolve(dataDir), 'slides');
export const thumbPath = (dataDir: string, id: number) => path.join(slidesRoot(dataDir), 'thumbs', `${id}.jpg`);
export const uploadsCompleteRoot = (dataDir: string) => path.join(path.resolve(dataDir), 'uploads', 'complete');

/** Stored paths use `/` whatever the OS, relative to the data dir. */
export const toStored = (dataDir: string, abs: string) => path.relative(path.resolve(dataDir), abs).split(path.sep).join('/');
export const fromStored = (dataDir: string, stored: string) => path.resolve(dataDir, stored);

/** True when `abs` is strictly inside `root` (no `..` escape, not the root itself). */
export function isInside(root: string, abs: string): boolean {
  const rel = path.relative(root, abs);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}
