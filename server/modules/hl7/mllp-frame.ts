/**
 * MLLP framing (HL7 v2 over TCP, the Minimal Lower Layer Protocol): a message travels as 0x0B, its bytes, 0x1C 0x0D.
 * Pure: the listener and the sender feed what the socket gives and take whole messages out.
 */
export const VT = 0x0b;
export const FS = 0x1c;
export const CR = 0x0d;

/** A message longer than the limit: the connection is closed rather than buffering without end. */
export class FrameTooLarge extends Error {}

export const frame = (message: string): Buffer => Buffer.concat([Buffer.from([VT]), Buffer.from(message, 'utf8'), Buffer.from([FS, CR])]);

/**
 * Takes a stream's chunks in order and answers the whole messages they complete. Bytes outside a frame (a peer's
 * stray line feed between messages) are skipped; a frame growing past `maxBytes` throws FrameTooLarge.
 */
export class MllpDecoder {
  private parts: Buffer[] = [];
  private size = 0;
  private inFrame = false;
  /** The frame's last byte was FS: a CR next ends it. */
  private sawFs = false;

  constructor(private readonly maxBytes: number) {}

  push(chunk: Buffer): Buffer[] {
    const out: Buffer[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      const b = chunk[i];
      if (!this.inFrame) {
        if (b === VT) {
          this.inFrame = true;
          start = i + 1;
        }
        continue;
      }
      if (this.sawFs) {
        this.sawFs = false;
        if (b === CR) {
          // The body ends before the FS (which may have come at the end of the previous chunk).
          this.take(chunk, start, i - 1);
          out.push(this.finish());
          continue;
        }
      }
      if (b === FS) this.sawFs = true;
    }
    if (this.inFrame) this.take(chunk, start, chunk.length);
    return out;
  }

  private take(chunk: Buffer, from: number, to: number): void {
    if (to > from) {
      this.parts.push(chunk.subarray(from, to));
      this.size += to - from;
    } else if (to < from && this.parts.length) {
      // The FS was the last byte of the previous chunk: drop it from what was kept.
      const last = this.parts[this.parts.length - 1];
      this.parts[this.parts.length - 1] = last.subarray(0, last.length - 1);
      this.size -= 1;
    }
    if (this.size > this.maxBytes) throw new FrameTooLarge(`an MLLP message over ${this.maxBytes} bytes`);
  }

  private finish(): Buffer {
    const body = Buffer.concat(this.parts, this.size);
    this.parts = [];
    this.size = 0;
    this.inFrame = false;
    return body;
  }
}
