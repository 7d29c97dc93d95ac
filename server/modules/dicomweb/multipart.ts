import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';

/** A multipart/related body (RFC 2387) and its Content-Type, for WADO-RS answers of frames and instances. */
export interface Multipart {
  contentType: string;
  body: Readable;
}

/** One part's bytes: a buffer, or its chunks as they are produced (an instance, frame by frame). */
export type Part = Buffer | Iterable<Buffer> | AsyncIterable<Buffer>;

/**
 * Parts of media type `partType` (with its parameters, e.g. a transfer syntax), each what one iteration of `parts`
 * yields, written as they are produced: one frame, or one chunk of an instance, in memory at a time. An error while
 * a part is made ends the body (the client sees it cut short), never the process.
 */
export function multipartRelated(partType: string, parts: AsyncIterable<Part>): Multipart {
  const boundary = `dsms-${randomBytes(12).toString('hex')}`;
  const bare = partType.split(';')[0].trim();
  async function* write(): AsyncGenerator<Buffer> {
    for await (const part of parts) {
      yield Buffer.from(`--${boundary}\r\nContent-Type: ${partType}\r\n\r\n`, 'latin1');
      if (Buffer.isBuffer(part)) yield part;
      else yield* part;
      yield Buffer.from('\r\n', 'latin1');
    }
    yield Buffer.from(`--${boundary}--\r\n`, 'latin1');
  }
  return { contentType: `multipart/related; type="${bare}"; boundary=${boundary}`, body: Readable.from(write(), { objectMode: false }) };
}
