import { areaStorageUrl, parseAreaStorage } from '../../src/core/hospitalArea.js';
import { areaMessages } from '../modules/areas/messages.js';

/**
 * The rules of backing up and restoring hospital areas' storages (issue 29): which storage a stored path is in, and
 * which `--area` moves a restore was asked for. Pure: area-copy.ts does the copying.
 */

/** A hospital area as the database snapshot holds it. */
export interface AreaRef { id: number; code: string; storage_url: string }

/** A stored path the backup copies: relative to a storage's root. Anything else (a URL, an absolute path) is not ours to copy. */
export const isStoredPath = (p: unknown): p is string => typeof p === 'string' && !!p && !p.startsWith('/') && !/^[a-z][a-z0-9+.-]*:/i.test(p);

/**
 * The paths the database names, by the storage they are in: a slide of an area is in that area's (its path relative
 * to the area's root, as area-storages.ts reads it); a slide of no area, or of an area that is gone (read from the
 * default storage, as slides/resolver.ts does), and every case image and attachment, in the default storage.
 */
export function placeReferences(
  slides: { path: unknown; area: unknown }[], others: unknown[], areaIds: readonly number[],
): { base: string[]; areas: Map<number, string[]> } {
  const base = new Set<string>();
  const byArea = new Map<number, Set<string>>(areaIds.map((id) => [id, new Set()]));
  for (const { path, area } of slides) {
    if (!isStoredPath(path)) continue;
    const inArea = area === null || area === undefined ? undefined : byArea.get(Number(area));
    (inArea ?? base).add(path);
  }
  for (const p of others) if (isStoredPath(p)) base.add(p);
  return { base: [...base].sort(), areas: new Map([...byArea].map(([id, set]) => [id, [...set].sort()])) };
}

/** How a path missing from an area's storage is listed among the manifest's missing: as the backup folder names it. */
export const areaItemName = (id: number, path: string) => `areas/${id}/${path}`;

/**
 * `--area <id or code>=<storage url or absolute directory>` (repeatable): where a restore puts an area's files
 * instead of where the backup's database names, in the spelling the app stores (checked by the app's own parser,
 * src/core/hospitalArea.ts). Every problem at once, each naming the argument it is about.
 */
export function resolveAreaMoves(args: readonly string[], areas: readonly AreaRef[]): { moves: Map<number, string> } | { errors: string[] } {
  const moves = new Map<number, string>();
  const errors: string[] = [];
  const known = areas.length ? `its areas: ${areas.map((a) => `${a.id} ${a.code}`).join(', ')}` : 'it has none';
  for (const arg of args) {
    const at = arg.indexOf('=');
    const spec = at < 0 ? '' : arg.slice(0, at).trim();
    const location = at < 0 ? '' : arg.slice(at + 1).trim();
    if (!spec || !location) {
      errors.push(`--area ${arg}: expected <area id or code>=<storage url or absolute directory>`);
      continue;
    }
    const area = (/^\d+$/.test(spec) ? areas.find((a) => a.id === Number(spec)) : undefined) ?? areas.find((a) => a.code === spec);
    if (!area) {
      errors.push(`--area ${arg}: the backup has no hospital area ${spec} (${known})`);
      continue;
    }
    if (moves.has(area.id)) {
      errors.push(`--area ${arg}: hospital area ${area.code} is given twice`);
      continue;
    }
    const parsed = parseAreaStorage(location);
    if ('error' in parsed) {
      errors.push(`--area ${arg}: ${areaMessages[parsed.error as keyof typeof areaMessages]?.['en-US'] ?? parsed.error}`);
      continue;
    }
    moves.set(area.id, areaStorageUrl(parsed));
  }
  return errors.length ? { errors } : { moves };
}

/**
 * Keys of one storage that belong to another nested inside it (an area's directory under DATA_DIR, an area's prefix
 * under STORAGE_URL's in the same bucket): copied with that storage, so left out of this one's. `root`: this
 * storage's directory or prefix; `inner`: the others' in the same filesystem or bucket ('' is a bucket's root).
 */
export function withoutNested(keys: readonly string[], root: string, inner: readonly string[]): string[] {
  const own = root.replace(/\/+$/, '');
  const nested = inner
    .map((p) => p.replace(/\/+$/, ''))
    .filter((p) => p !== own && (own === '' || p.startsWith(`${own}/`)))
    .map((p) => `${own === '' ? p : p.slice(own.length + 1)}/`);
  return nested.length ? keys.filter((k) => !nested.some((n) => k.startsWith(n))) : [...keys];
}
