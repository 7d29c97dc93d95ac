import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';
import type { Storage } from '../../storage/storage.js';

/**
 * A slide file from object storage, as @fastify/send answers one from disk: the whole object, or the one byte
 * range a browser or download manager asks to resume from (206, or 416 past the end). Streamed, never buffered.
 */
export async function sendStored(request: FastifyRequest, reply: FastifyReply, storage: Storage, key: string): Promise<FastifyReply> {
  const stat = await storage.stat(key);
  if (!stat) throw new AppError(404, 'slide.file_missing', { path: key });
  reply.header('accept-ranges', 'bytes').header('last-modified', new Date(stat.mtimeMs).toUTCString()).type('application/octet-stream');
  const range = parseRange(request.headers.range, stat.size);
  if (range === 'unsatisfiable') return reply.code(416).header('content-range', `bytes */${stat.size}`).send();
  if (!range) return reply.header('content-length', stat.size).send(await storage.readStream(key));
  return reply.code(206).header('content-range', `bytes ${range.start}-${range.end}/${stat.size}`)
    .header('content-length', range.end - range.start + 1).send(await storage.readStream(key, range));
}

/** One `bytes=a-b`, `bytes=a-` or `bytes=-n` range; several, or a malformed header, are answered whole, as send does. */
export function parseRange(header: string | undefined, size: number): { start: number; end: number } | 'unsatisfiable' | null {
  const m = header ? /^bytes=(\d*)-(\d*)$/.exec(header.trim()) : null;
  if (!m || (m[1] === '' && m[2] === '')) return null;
  let start: number;
  let end: number;
  if (m[1] === '') {
    start = Math.max(0, size - Number(m[2]));
    end = size - 1;
  } else {
    start = Number(m[1]);
    end = m[2] === '' ? size - 1 : Math.min(Number(m[2]), size - 1);
  }
  if (start >= size || start > end) return 'unsatisfiable';
  return { start, end };
}
