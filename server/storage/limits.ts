import { AppError } from '../http/errors.js';

/** One ranged read: a tile, a TIFF directory, a block of the cache. Nothing a request asks reads more at once. */
export const MAX_RANGE_BYTES = 64 * 2 ** 20;
/** S3 allows 10,000 parts; at 16 MiB each an object may reach 156 GiB, past the largest slides scanned. */
export const PART_BYTES = 16 * 2 ** 20;
export const MAX_PARTS = 10_000;
export const MAX_OBJECT_BYTES = PART_BYTES * MAX_PARTS;

export function refuseRange(length: number, max: number): void {
  if (!Number.isInteger(length) || length < 0 || length > max) throw new AppError(422, 'storage.range_too_large', { max });
}
