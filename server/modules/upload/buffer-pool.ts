/**
 * A fixed number of equal buffers, lent out one per request. Chunks are held here between the socket and the
 * disk, so memory stays the same whatever the file size and however many requests arrive: a request that finds
 * every buffer lent waits, and its bytes wait in the socket meanwhile (TCP backpressure).
 */
export class BufferPool {
  private readonly free: Buffer[] = [];
  private readonly waiting: ((buffer: Buffer) => void)[] = [];
  private created = 0;

  constructor(private readonly count: number, private readonly size: number) {}

  async acquire(): Promise<Lease> {
    const buffer = this.free.pop() ?? (this.created < this.count ? this.create() : await new Promise<Buffer>((resolve) => this.waiting.push(resolve)));
    let returned = false;
    return {
      buffer,
      release: () => {
        if (returned) return;
        returned = true;
        const next = this.waiting.shift();
        if (next) next(buffer);
        else this.free.push(buffer);
      },
    };
  }

  private create(): Buffer {
    this.created++;
    // Outside Node's small-buffer slab: each is a chunk-sized allocation of its own, kept for the process's life.
    return Buffer.allocUnsafeSlow(this.size);
  }
}

export interface Lease {
  buffer: Buffer;
  /** Gives the buffer back; later calls do nothing. */
  release(): void;
}
