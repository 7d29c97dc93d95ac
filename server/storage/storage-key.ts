import path from 'node:path';

/** The longest key S3 accepts is 1024 bytes; the prefix counts too, so keys stay well below. */
export const MAX_KEY_BYTES = 900;

/**
 * A key a backend may use: a relative `/`-separated path without empty, `.` or `..` segments, backslashes or control
 * characters. Keys come from stored paths and from request bodies (bind by path), so neither backend may be led out
 * of its directory or prefix.
 */
export function isSafeKey(key: string): boolean {
  if (key === '' || Buffer.byteLength(key) > MAX_KEY_BYTES) return false;
  // eslint-disable-next-line no-control-regex
  if (/[\\\u0000-\u001f\u007f]/.test(key)) return false;
  return key.split('/').every((s) => s !== '' && s !== '.' && s !== '..');
}

/** A key under a prefix (`a/b` + `c` → `a/b/c`); an empty prefix is the key itself. */
export const joinKey = (prefix: string, key: string) => (prefix ? `${prefix}/${key}` : key);

/** The key of an absolute path under the data directory (as the slides table stores it), or null outside it. */
export function keyUnder(dataDir: string, abs: string): string | null {
  const rel = path.relative(path.resolve(dataDir), abs);
  if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) return null;
  return rel.split(path.sep).join('/');
}
