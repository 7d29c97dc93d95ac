import { CHUNK_LOAD_TIMEOUT_MS } from './constants.js';

/** A code chunk did not arrive: `timeout` after CHUNK_LOAD_TIMEOUT_MS (spec §9), `failed` when the load threw. */
export class ChunkLoadError extends Error {
  constructor(readonly reason: 'timeout' | 'failed', readonly cause?: unknown) {
    super(reason === 'timeout' ? 'chunk load timed out' : `chunk load failed: ${String(cause)}`);
    this.name = 'ChunkLoadError';
  }
}

/**
 * Runs a dynamic import with the spec's chunk timeout. The import itself cannot be cancelled; a retry calls
 * `load` again, which joins the same fetch if it is still under way or starts a new one if it failed.
 */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    load().then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error) => { clearTimeout(timer); reject(new ChunkLoadError('failed', error)); },
    );
  });
}
