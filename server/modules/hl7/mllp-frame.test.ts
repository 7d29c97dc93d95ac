import { describe, expect, it } from 'vitest';
import { frame, FrameTooLarge, MllpDecoder } from './mllp-frame.js';

const text = (bufs: Buffer[]) => bufs.map((b) => b.toString('utf8'));

describe('MLLP framing', () => {
  it('frames a message as 0x0B, its UTF-8 bytes, 0x1C 0x0D', () => {
    expect([...frame('MSH|é')]).toEqual([0x0b, ...Buffer.from('MSH|é', 'utf8'), 0x1c, 0x0d]);
  });

  it('takes whole messages, two in one chunk, and skips bytes between frames', () => {
    const d = new MllpDecoder(1000);
    expect(text(d.push(Buffer.concat([frame('A|1'), Buffer.from('\n'), frame('B|2')])))).toEqual(['A|1', 'B|2']);
  });

  it('joins a message split at every byte, the end marker split too', () => {
    const d = new MllpDecoder(1000);
    const bytes = Buffer.concat([frame('MSH|^~\\&|中文'), frame('X')]);
    const out: Buffer[] = [];
    for (const b of bytes) out.push(...d.push(Buffer.from([b])));
    expect(text(out)).toEqual(['MSH|^~\\&|中文', 'X']);
  });

  it('keeps a lone 0x1C inside the message; only 0x1C 0x0D ends it', () => {
    const d = new MllpDecoder(1000);
    expect(text(d.push(Buffer.from([0x0b, 0x41, 0x1c, 0x42, 0x1c, 0x0d])))).toEqual(['A\x1cB']);
  });

  it('refuses a message past the limit instead of buffering it', () => {
    const d = new MllpDecoder(10);
    expect(d.push(Buffer.from([0x0b, ...Buffer.from('12345')]))).toEqual([]);
    expect(() => d.push(Buffer.from('678901'))).toThrow(FrameTooLarge);
    expect(text(new MllpDecoder(10).push(frame('1234567890')))).toEqual(['1234567890']);
  });
});
