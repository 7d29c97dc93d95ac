import type { IncomingMessage } from 'node:http';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import { formatBytes } from './format-bytes.js';
import type { BufferPool, Lease } from './buffer-pool.js';
import { multipartBoundary, parseMultipart } from './multipart-buffer.js';

/** Room for the protocol's short fields and the part headers around the 2 MiB file. */
export const CHUNK_BODY_OVERHEAD = 64 * 1024;

/** What the chunk route's body parser read: the fields, and the file part as a range of a pooled buffer. */
export interface ChunkBody {
  fields: Record<string, string>;
  file?: { lease: Lease; start: number; end: number };
}

/** The request's held body; kept beside the request, not in `request.body`, which the operation log records. */
const bodies = new WeakMap<FastifyRequest, { lease: Lease; body: ChunkBody }>();

/**
 * The chunk route's multipart/form-data parser, for the scope that holds only that route: the whole body is read
 * into a buffer lent by `pool` (at most chunk + CHUNK_BODY_OVERHEAD bytes: more is refused with 413 before it is
 * kept), then split into parts in place (multipart-buffer.ts). The chunk is never copied again: it is hashed and
 * written from that buffer. The buffer goes back to the pool when the response is sent or the request is aborted,
 * whether or not the handler ran (a refused session, a screen lock).
 */
export function registerChunkBodyParser(scope: FastifyInstance, pool: BufferPool, chunkBytes: number): void {
  const capacity = chunkBytes + CHUNK_BODY_OVERHEAD;
  scope.addContentTypeParser('multipart/form-data', (request, payload, done) => {
    readInto(request, payload as IncomingMessage, pool, capacity, chunkBytes).then((fields) => done(null, fields), (err: Error) => done(err, undefined));
  });
  const release = async (request: FastifyRequest) => {
    bodies.get(request)?.lease.release();
  };
  scope.addHook('onResponse', release);
  scope.addHook('onRequestAbort', release);
}

/** The body the parser read for this request, or undefined when it was not multipart. */
export function chunkBodyOf(request: FastifyRequest): ChunkBody | undefined {
  return bodies.get(request)?.body;
}

async function readInto(request: FastifyRequest, payload: IncomingMessage, pool: BufferPool, capacity: number, chunkBytes: number): Promise<Record<string, string>> {
  const boundary = multipartBoundary(request.headers['content-type']);
  if (!boundary) throw new AppError(400, 'upload.not_multipart');
  const tooLarge = () => new AppError(413, 'upload.chunk_too_large', { max: formatBytes(chunkBytes) });
  const declared = Number(request.headers['content-length']);
  if (declared > capacity) throw tooLarge();
  const lease = await pool.acquire();
  let length = 0;
  try {
    for await (const piece of payload as AsyncIterable<Buffer>) {
      if (length + piece.length > lease.buffer.length || length + piece.length > capacity) throw tooLarge();
      length += piece.copy(lease.buffer, length);
    }
    const parts = parseMultipart(lease.buffer, length, boundary);
    if (!parts) throw new AppError(400, 'upload.not_multipart');
    const fields: Record<string, string> = {};
    let file: ChunkBody['file'];
    for (const part of parts) {
      if (part.filename === undefined) fields[part.name] ??= lease.buffer.toString('utf8', part.start, part.end);
      else if (part.name === 'blob' && !file) file = { lease, start: part.start, end: part.end };
    }
    bodies.set(request, { lease, body: { fields, file } });
    return fields;
  } catch (err) {
    lease.release();
    throw err;
  }
}
