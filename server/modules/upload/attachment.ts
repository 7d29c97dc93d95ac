import fs from 'node:fs/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import type { UploadStore } from './upload-store.js';
import { sanitizeFileName } from './file-name.js';
import { formatBytes } from './format-bytes.js';
import { readMultipart, streamToFile } from './receive.js';

/**
 * POST /upload/image: one file (multipart `file`) of at most `maxBytes` (spec §9: 200M), streamed to a temp
 * file and moved into place whole. Over the limit, or on any failure, nothing is kept.
 * Answers the stored path relative to the data dir.
 */
export async function keepAttachment(request: FastifyRequest, store: UploadStore, maxBytes: number): Promise<{ path: string }> {
  let temp: { path: string; filename: string; size: number; truncated: boolean } | undefined;
  try {
    await readMultipart(request, { fileField: 'file', maxFileBytes: maxBytes }, async (file, filename) => {
      const created = await store.createTemp();
      temp = { path: created.path, filename, size: 0, truncated: false };
      Object.assign(temp, await streamToFile(file, created.handle));
    });
    // What the operation log records of this write: never the bytes.
    request.body = { file_name: temp?.filename, size: temp?.size };
    if (!temp) throw new AppError(422, 'error.validation', {}, { file: [{ key: 'upload.file_missing' }] });
    if (temp.truncated) throw new AppError(413, 'upload.image_too_large', { max: formatBytes(maxBytes) });
    const target = store.attachmentPath(sanitizeFileName(temp.filename));
    await store.publish(temp.path, target);
    return { path: store.relative(target) };
  } finally {
    // A file moved into place is no longer there; anything else is removed.
    if (temp) await fs.rm(temp.path, { force: true });
  }
}
