import { describe, expect, it } from 'vitest';
import { BufferPool } from './buffer-pool.js';

describe('BufferPool', () => {
  it('lends at most `count` buffers and hands a returned one to the first waiter', async () => {
    const pool = new BufferPool(2, 8);
    const a = await pool.acquire();
    const b = await pool.acquire();
    expect(a.buffer.length).toBe(8);
    expect(a.buffer).not.toBe(b.buffer);
    let third: Buffer | undefined;
    const waiting = pool.acquire().then((lease) => (third = lease.buffer));
    await new Promise((r) => setTimeout(r, 5));
    expect(third).toBeUndefined();
    a.release();
    a.release();
    await waiting;
    expect(third).toBe(a.buffer);
    b.release();
    expect((await pool.acquire()).buffer).toBe(b.buffer);
  });
});
