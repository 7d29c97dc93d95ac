import type { Readable } from 'node:stream';
import { ATTACHMENT_MAX_BYTES } from '../../../src/core/constants.js';
import { isNotFound } from '../../storage/errors.js';
import type { Storage } from '../../storage/storage.js';
import { isSafeKey } from '../../storage/storage-key.js';

/** Where kept attachments live, in the data directory or the bucket (upload-store.ts attachmentPath). */
export const ATTACHMENTS_PREFIX = 'uploads/attachments/';

/**
 * Only keys under the attachments prefix are read as attachments: a stored path naming anything else (secrets.key, a
 * slide, a `..` escape) is treated as absent, never served.
 */
export const isAttachmentKey = (key: string) => key.startsWith(ATTACHMENTS_PREFIX) && isSafeKey(key);

/** An attachment's size and bytes as a stream, through the app's storage (any node sees the same); null when absent. */
export async function openAttachment(storage: Storage, key: string): Promise<{ size: number; body: Readable } | null> {
  if (!isAttachmentKey(key)) return null;
  const stat = await storage.stat(key);
  if (!stat || stat.folder) return null;
  const body = await storage.readStream(key).catch(absent);
  return body && { size: stat.size, body };
}

/**
 * An attachment's bytes in memory (report images: pdfkit draws synchronously, so they are loaded first); null when
 * absent or larger than an attachment may be.
 */
export async function readAttachment(storage: Storage, key: string, maxBytes = ATTACHMENT_MAX_BYTES): Promise<Buffer | null> {
  const found = await openAttachment(storage, key);
  if (!found) return null;
  if (found.size > maxBytes) {
    found.body.destroy();
    return null;
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of found.body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      found.body.destroy();
      return null;
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** A missing object (deleted between stat and read) reads as absent; anything else is the storage's failure. */
function absent(err: unknown): null {
  if (isNotFound(err)) return null;
  throw err;
}
