import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ChunkLoadError, loadChunk } from './chunkLoad';
import { CHUNK_LOAD_TIMEOUT_MS } from './constants';

describe('chunk loading (spec §9: chunk load timeout 120 s)', () => {
  beforeEach(() => { vi.useFakeTimers(); });
  afterEach(() => { vi.useRealTimers(); });

  it('is 120 s', () => expect(CHUNK_LOAD_TIMEOUT_MS).toBe(120_000));

  it('resolves with the module when it arrives in time, leaving no timer behind', async () => {
    const mod = { default: 'Page' };
    await expect(loadChunk(() => Promise.resolve(mod))).resolves.toBe(mod);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('gives up with a timeout error after the limit, not before', async () => {
    const pending = loadChunk(() => new Promise(() => {}));
    const settled = vi.fn();
    pending.catch(settled);
    await vi.advanceTimersByTimeAsync(CHUNK_LOAD_TIMEOUT_MS - 1);
    expect(settled).not.toHaveBeenCalled();
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toHaveBeenCalledWith(expect.objectContaining({ name: 'ChunkLoadError', reason: 'timeout' }));
  });

  it('turns a failed import into a chunk error that keeps the cause', async () => {
    const cause = new TypeError('Failed to fetch dynamically imported module');
    const error = await loadChunk(() => Promise.reject(cause)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ChunkLoadError);
    expect(error).toMatchObject({ reason: 'failed', cause });
    expect(vi.getTimerCount()).toBe(0);
  });
});
