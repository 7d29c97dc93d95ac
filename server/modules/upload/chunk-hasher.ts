import type { Lease } from './buffer-pool.js';
import { WorkerClient } from './worker-client.js';

/**
 * MD5 of received chunks on a worker thread of its own. Hashing 2 MiB takes the CPU 3–5 ms; on the event loop
 * that was the largest single cost of a chunk request (profile of scripts/bench/upload.ts), and every other
 * request waited behind it. The chunk stays where it is: the pool's buffers are shared memory.
 */
export class ChunkHasher {
  private readonly worker = new WorkerClient();

  /** MD5 of `length` bytes of the lease's buffer from `offset` (a chunk inside a request body). */
  async md5(lease: Lease, length: number, offset = 0): Promise<string> {
    const reply = await this.worker.request({ op: 'md5', job: this.worker.nextKey(), buffer: lease.shared, offset, length });
    if (!reply.ok || !reply.md5) throw new Error(reply.ok ? 'no md5' : reply.message);
    return reply.md5;
  }

  close(): Promise<void> {
    return this.worker.close();
  }
}
