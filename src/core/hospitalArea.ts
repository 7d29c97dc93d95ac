/**
 * What a hospital area's settings may hold (issue 29), shared by the server's check of a write and any form: its
 * storage location, a local directory or an S3 bucket with a prefix, and its job queue names.
 */

export type AreaStorageLocation = { kind: 'local'; dir: string } | { kind: 's3'; bucket: string; prefix: string };

/** The most queue names an area lists, and the longest name. */
export const MAX_AREA_QUEUES = 8;
export const QUEUE_NAME = /^[a-z0-9][a-z0-9_-]{0,63}$/;

/**
 * `/srv/dsms/area-b` (an absolute directory, `file:` optional in front) or `s3://bucket/prefix`: the location, or the
 * message key of what is wrong. No `.`/`..` or empty segments and no control characters, so no location reaches
 * outside what it names.
 */
export function parseAreaStorage(input: string): AreaStorageLocation | { error: string } {
  const url = input.trim();
  // eslint-disable-next-line no-control-regex
  if (!url || url.length > 500 || /[\u0000-\u001f\u007f\\]/.test(url)) return { error: 'area.storage_invalid' };
  const s3 = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (s3) {
    const prefix = (s3[2] ?? '').replace(/^\/+|\/+$/g, '');
    if (prefix && !safeSegments(prefix)) return { error: 'area.storage_invalid' };
    return { kind: 's3', bucket: s3[1]!, prefix };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url) && !url.startsWith('file://')) return { error: 'area.storage_invalid' };
  const dir = url.startsWith('file://') ? url.slice('file://'.length) : url;
  if (!dir.startsWith('/') || dir === '/') return { error: 'area.storage_not_absolute' };
  const trimmed = dir.replace(/\/+$/, '');
  if (!safeSegments(trimmed.slice(1))) return { error: 'area.storage_invalid' };
  return { kind: 'local', dir: trimmed };
}

/** A location in the one spelling it is stored in: the directory without a trailing slash, `s3://bucket/prefix`. */
export const areaStorageUrl = (location: AreaStorageLocation): string =>
  location.kind === 'local' ? location.dir : `s3://${location.bucket}${location.prefix ? `/${location.prefix}` : ''}`;

const safeSegments = (path: string) => path.split('/').every((s) => s !== '' && s !== '.' && s !== '..');

/** `a, b` → ['a', 'b']: the names, or the message key of what is wrong (none, too many, a bad or repeated name). */
export function parseQueueNames(input: string): string[] | { error: string } {
  const names = input.split(',').map((s) => s.trim()).filter(Boolean);
  if (!names.length) return { error: 'area.queue_required' };
  if (names.length > MAX_AREA_QUEUES) return { error: 'area.queue_too_many' };
  if (!names.every((n) => QUEUE_NAME.test(n))) return { error: 'area.queue_invalid' };
  if (new Set(names).size !== names.length) return { error: 'area.queue_repeated' };
  return names;
}

/** The queue an area's slide jobs (ingest, conversion, focus check) are put on: its first. */
export const areaJobQueue = (queueNames: string): string => queueNames.split(',').map((s) => s.trim()).find(Boolean) ?? 'default';
