/**
 * A fixed number of equal buffers, lent out one per request. Chunks are held here between the socket and the
 * disk, so memory stays the same whatever the file size and however many requests arrive: a request that finds
 * every buffer lent waits, and its bytes wait in the socket meanwhile (TCP backpressure).
 * The buffers live in shared memory, so a worker thread can hash a chunk without it being copied.
 */
export class BufferPool {
  private readonly free: SharedArrayBuffer[] = [];
  private readonly waiting: ((shared: SharedArrayBuffer) => void)[] = [];
  private created = 0;

  constructor(private readonly count: number, private readonly size: number) {}

  async acquire(): Promise<Lease> {
    const shared = this.free.pop() ?? (this.created < this.count ? this.create() : await new Promise<SharedArrayBuffer>((resolve) => this.waiting.push(resolve)));
    let returned = false;
    return {
      buffer: Buffer.from(shared),
      shared,
      release: () => {
        if (returned) return;
        returned = true;
        const next = this.waiting.shift();
        if (next) next(shared);
        else this.free.push(shared);
      },
    };
  }

  private create(): SharedArrayBuffer {
    this.created++;
    return new SharedArrayBuffer(this.size);
  }
}

export interface Lease {
  /** A view of `shared`. */
  buffer: Buffer;
  shared: SharedArrayBuffer;
  /** Gives the buffer back; later calls do nothing. */
  release(): void;
}
