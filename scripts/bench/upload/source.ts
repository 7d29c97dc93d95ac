import { createHash, randomFillSync } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import { UPLOAD_CHUNK_BYTES as CHUNK, UPLOAD_MD5_MAX_BYTES as MD5_LIMIT } from '../../../src/core/constants.js';

/** The source file every method sends: made with its MD5s, read chunk by chunk, and the stored copy checked. */

/** Requests in flight for the parallel methods. */
export const IN_FLIGHT = 4;

export { CHUNK };

/** Random bytes (fixed seed is not needed: every method sends the same file) and the client-side MD5s. */
export async function generate(file: string, size: number): Promise<{ chunks: string[]; total: string }> {
  const out = await fs.open(file, 'w');
  const block = Buffer.allocUnsafe(CHUNK);
  const total = createHash('md5');
  const chunks: string[] = [];
  try {
    for (let offset = 0; offset < size; offset += CHUNK) {
      const bytes = block.subarray(0, Math.min(CHUNK, size - offset));
      randomFillSync(bytes);
      chunks.push(createHash('md5').update(bytes).digest('hex'));
      if (offset < MD5_LIMIT) total.update(bytes.subarray(0, Math.min(bytes.length, MD5_LIMIT - offset)));
      await out.write(bytes, 0, bytes.length, offset);
    }
  } finally {
    await out.close();
  }
  return { chunks, total: total.digest('hex') };
}

/** Outside the timing: the assembled file has the size and leading-bytes MD5 of the source. */
export async function verifyStored(file: string, size: number, totalMd5: string): Promise<void> {
  const hash = createHash('md5');
  let seen = 0;
  for await (const piece of createReadStream(file, { end: MD5_LIMIT - 1 })) {
    hash.update(piece as Buffer);
    seen += (piece as Buffer).length;
  }
  const { size: storedSize } = await fs.stat(file);
  if (storedSize !== size || hash.digest('hex') !== totalMd5 || seen !== Math.min(size, MD5_LIMIT)) throw new Error(`${file} is not the file that was sent`);
}

/** Reads the source in 2 MiB chunks (one buffer per worker) and hands them to `send`, `parallel` at a time. */
export async function eachChunk(source: string, size: number, send: (num: number, bytes: Buffer, offset: number) => Promise<void>, parallel = IN_FLIGHT): Promise<void> {
  const file = await fs.open(source, 'r');
  const totalNum = Math.max(1, Math.ceil(size / CHUNK));
  let next = 1;
  try {
    await Promise.all(Array.from({ length: parallel }, async () => {
      const buffer = Buffer.allocUnsafe(CHUNK);
      while (next <= totalNum) {
        const num = next++;
        const offset = (num - 1) * CHUNK;
        const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK, size - offset), offset);
        await send(num, buffer.subarray(0, bytesRead), offset);
      }
    }));
  } finally {
    await file.close();
  }
}
