import type { FileHandle } from 'node:fs/promises';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';

/** Generous for the protocol's handful of short fields, small enough that fields never cost real memory. */
const FIELD_LIMITS = { fields: 64, fieldSize: 64 * 1024, parts: 80, files: 8 };

type FileStream = Readable & { truncated?: boolean };

/**
 * Reads a multipart body in whatever order its parts come: fields are collected, the first file part named
 * `fileField` goes to `onFile`, which must consume it; any other file part is drained and dropped.
 * Busboy stops passing a file's bytes at `maxFileBytes` and marks the stream truncated.
 */
export async function readMultipart(
  request: FastifyRequest,
  options: { fileField: string; maxFileBytes: number },
  onFile: (file: FileStream, filename: string) => Promise<void>,
): Promise<Record<string, string>> {
  if (!request.isMultipart()) throw new AppError(400, 'upload.not_multipart');
  const fields: Record<string, string> = {};
  let seen = false;
  for await (const part of request.parts({ limits: { ...FIELD_LIMITS, fileSize: options.maxFileBytes } })) {
    if (part.type === 'field') {
      fields[part.fieldname] ??= typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
    } else if (part.fieldname === options.fileField && !seen) {
      seen = true;
      await onFile(part.file, part.filename);
    } else {
      for await (const _ of part.file) { /* extra files are not ours to keep */ }
    }
  }
  return fields;
}

export interface HeldChunk {
  /** The chunk's bytes, a view into a pooled buffer: valid until released. */
  bytes: Buffer;
  md5: string;
  /** More than the buffer holds came: the chunk must be refused. */
  truncated: boolean;
  release(): void;
}

/**
 * A large write buffer lets the pieces that arrive from the socket (~64 KiB) while a write is in flight go out
 * together as one writev: each file system call costs the event loop tens of microseconds on a VM.
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;

/** Streams a file to an open temp file; nothing of it is held in memory. */
export async function streamToFile(source: FileStream, handle: FileHandle): Promise<{ size: number; truncated: boolean }> {
  let size = 0;
  await pipeline(
    source,
    async function* count(pieces: AsyncIterable<Buffer>) {
      for await (const piece of pieces) {
        size += piece.length;
        yield piece;
      }
    },
    handle.createWriteStream({ highWaterMark: WRITE_BUFFER_BYTES }),
  );
  return { size, truncated: source.truncated === true };
}
