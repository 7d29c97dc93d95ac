import fs from 'node:fs/promises';
import path from 'node:path';

/** A slide file and, for slides of the slides table, the hospital it belongs to. */
export interface ResolvedSlide {
  file: string;
  /**
   * Only users of this hospital may read the slide. The app's resolver (the slides table's) always sets it; undefined
   * only from the file-name resolver below, which serves no route (tests of the tile service alone).
   */
  hospitalId?: number;
  /** Bound but not yet read or converted: nothing of it may be served (tile-service answers 409 slide.processing). */
  processing?: boolean;
  /** The subspecialty directory of the slide's case (spec §6); null or undefined: every directory's. */
  subspecialtyId?: number | null;
}

/** Maps a slide key from the URL to an absolute file path (or a file with its hospital), or null when there is no such slide. */
export type SlideResolver = (key: string) => Promise<string | ResolvedSlide | null>;

/** Keys are plain file names: no separators, no `..`, nothing hidden. */
const SAFE_KEY = /^[A-Za-z0-9][A-Za-z0-9._-]{0,199}$/;
const EXTENSIONS = ['', '.tiff', '.tif', '.svs', '.btf'];

export function isSafeSlideKey(key: string): boolean {
  return SAFE_KEY.test(key) && !key.includes('..');
}

/**
 * A folder of files by name, for the tile service on its own (benchmarks, tests of the service): `<dir>/<key>`, or
 * `<dir>/<key>.tiff|.tif|.svs|.btf`. No route uses it: it knows no hospital, so the app reaches slides only through
 * the slides table (server/modules/slides/resolver.ts; issue 27, a bound file read by its name from any hospital).
 * Answers are remembered for `ttlMs` so a tile request does not stat the disk; a replaced file is still
 * noticed by the slide store, which compares size and mtime.
 */
export function slidesDirResolver(dir: string, ttlMs = 5_000): SlideResolver {
  const root = path.resolve(dir);
  const known = new Map<string, { file: string | null; at: number }>();
  return async (key) => {
    if (!isSafeSlideKey(key)) return null;
    const hit = known.get(key);
    if (hit && Date.now() - hit.at < ttlMs) return hit.file;
    let file: string | null = null;
    for (const ext of EXTENSIONS) {
      const candidate = path.join(root, key + ext);
      const stat = await fs.stat(candidate).catch(() => null);
      if (stat?.isFile()) { file = candidate; break; }
    }
    if (known.size > 10_000) known.clear();
    known.set(key, { file, at: Date.now() });
    return file;
  };
}
