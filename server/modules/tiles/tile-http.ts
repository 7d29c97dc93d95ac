/**
 * What the Fastify tile routes and the fast lane (fast-lane.ts) must answer alike: tile addresses, cache
 * headers and ETag revalidation. Pure, so both paths are the same code.
 */

/**
 * Tiles never change for a given file identity (it is in the ETag), so the browser keeps them for good.
 * `private`: they are patient images fetched with a token; no shared proxy may store them.
 */
export const IMMUTABLE = 'private, max-age=31536000, immutable';
/** Descriptors are revalidated (a replaced file gets a new identity and a new ETag). */
export const REVALIDATE = 'private, no-cache';

export interface DziTileAddress {
  key: string;
  level: number;
  col: number;
  row: number;
}

const TILE_NAME = /^(\d{1,7})_(\d{1,7})\.(?:jpeg|jpg)$/;

/** `{key}_files`, `{level}`, `{col}_{row}.jpeg` → the tile, or null when the path is not a Deep Zoom tile. */
export function parseDziTilePath(files: string, level: string, tile: string): DziTileAddress | null {
  const address = TILE_NAME.exec(tile);
  if (!files.endsWith('_files') || !/^\d{1,2}$/.test(level) || !address) return null;
  return { key: files.slice(0, -6), level: Number(level), col: Number(address[1]), row: Number(address[2]) };
}

/** If-None-Match may list several tags or `*`, and compares weakly (RFC 9110 §13.1.2). */
export function etagMatches(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch === etag || ifNoneMatch.trim() === '*') return true;
  return ifNoneMatch.split(',').some((t) => t.trim().replace(/^W\//, '') === etag);
}
