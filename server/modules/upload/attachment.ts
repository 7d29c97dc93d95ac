import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import type { AttachmentQuota } from './attachment-quota.js';
import type { UploadStore } from './upload-store.js';
import { sanitizeFileName } from './file-name.js';
import { formatBytes } from './format-bytes.js';
import { readMultipart, streamToFile } from './receive.js';

/**
 * POST /upload/image: one file (multipart `file`) of at most `maxBytes` (spec §9: 200M), streamed to a temp
 * file and moved into place whole, within the user's attachment quota. Over either limit, or on any failure,
 * nothing is kept. Answers the stored path relative to the data dir.
 */
export async function keepAttachment(request: FastifyRequest, store: UploadStore, maxBytes: number, quota: AttachmentQuota): Promise<{ path: string }> {
  const user = request.auth!;
  // A full quota refuses before a byte is read; otherwise no more than what is left is read.
  const left = quota.limitBytes - (await quota.used(user.id));
  const overQuota = async () =>
    new AppError(413, 'upload.attachment_quota', { quota: formatBytes(quota.limitBytes), used: formatBytes(await quota.used(user.id)) });
  if (left <= 0) throw await overQuota();
  const limit = Math.min(maxBytes, left);
  let temp: { path: string; filename: string; size: number; truncated: boolean } | undefined;
  try {
    await readMultipart(request, { fileField: 'file', maxFileBytes: limit }, async (file, filename) => {
      const created = await store.createTemp();
      temp = { path: created.path, filename, size: 0, truncated: false };
      Object.assign(temp, await streamToFile(file, created.handle));
    });
    // What the operation log records of this write: never the bytes.
    request.body = { file_name: temp?.filename, size: temp?.size };
    if (!temp) throw new AppError(422, 'error.validation', {}, { file: [{ key: 'upload.file_missing' }] });
    if (temp.truncated) throw limit < maxBytes ? await overQuota() : new AppError(413, 'upload.image_too_large', { max: formatBytes(maxBytes) });
    const target = store.attachmentPath(sanitizeFileName(temp.filename));
    const stored = store.relative(target);
    // Recorded before it is published: parallel uploads of one user are counted against each other here.
    if (!(await quota.record({ userId: user.id, hospitalId: user.hospitalId, path: stored, size: temp.size }))) throw await overQuota();
    await store.publish(temp.path, target).catch(async (err: unknown) => {
      await quota.forget(stored);
      throw err;
    });
    return { path: stored };
  } finally {
    // A file moved into place is no longer there; anything else is removed.
    if (temp) await fs.rm(temp.path, { force: true });
  }
}
