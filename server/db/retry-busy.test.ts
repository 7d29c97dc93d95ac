import { describe, expect, it } from 'vitest';
import { retryBusy } from './retry-busy.js';

const busy = () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });

describe('retryBusy', () => {
  it('tries again while SQLite is busy and answers the write that went through', async () => {
    let calls = 0;
    const result = await retryBusy(async () => {
      calls++;
      if (calls < 3) throw busy();
      return 'written';
    }, 4, 1);
    expect([result, calls]).toEqual(['written', 3]);
  });

  it('gives up after the last try, and at once on any other error', async () => {
    let calls = 0;
    await expect(retryBusy(async () => {
      calls++;
      throw busy();
    }, 3, 1)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
    expect(calls).toBe(3);
    calls = 0;
    await expect(retryBusy(async () => {
      calls++;
      throw Object.assign(new Error('constraint'), { code: 'SQLITE_CONSTRAINT' });
    }, 3, 1)).rejects.toMatchObject({ code: 'SQLITE_CONSTRAINT' });
    expect(calls).toBe(1);
  });
});
