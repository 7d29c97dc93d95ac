/** What may be used as the last segment of a stored path: a plain name, never a path or a device trick. */
// Control characters are exactly what this refuses.
// eslint-disable-next-line no-control-regex
const FORBIDDEN = /[/\\\u0000-\u001f\u007f]/;
const MAX_NAME_BYTES = 255;

export function isSafeFileName(name: string): boolean {
  return name.length > 0 && name !== '.' && name !== '..' && !FORBIDDEN.test(name) && Buffer.byteLength(name) <= MAX_NAME_BYTES;
}

/** For attachments, whose names come from the browser's file picker: keep what is safe, replace the rest. */
export function sanitizeFileName(name: string | undefined): string {
  let safe = (name ?? '').replace(new RegExp(FORBIDDEN.source, 'g'), '_');
  while (Buffer.byteLength(safe) > MAX_NAME_BYTES) safe = Array.from(safe).slice(0, -1).join('');
  return safe === '' || safe === '.' || safe === '..' ? 'file' : safe;
}
