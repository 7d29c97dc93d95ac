import { AppError } from '../../http/errors.js';

/** Storage failures the user can act on (tell the administrator) get their own message instead of a bare 500. */
const DISK_FULL = new Set(['ENOSPC', 'EDQUOT']);

export function mapDiskError(err: unknown): unknown {
  const code = (err as NodeJS.ErrnoException | null)?.code;
  if (code && DISK_FULL.has(code)) return new AppError(507, 'upload.disk_full');
  return err;
}
