import type { InternalAxiosRequestConfig } from 'axios';
import { beforeAll, describe, expect, it } from 'vitest';
import { installStorage } from './storage';

installStorage();

/** Spec §9's 120 s is the chunk-load timeout (src/core/chunkLoad.ts); API calls have their own. */
describe('API request timeout', () => {
  let client: typeof import('../../src/api/client');
  const seen: number[] = [];
  beforeAll(async () => {
    client = await import('../../src/api/client');
    // Answer locally, recording the timeout each request went out with.
    client.api.defaults.adapter = async (config: InternalAxiosRequestConfig) => {
      seen.push(config.timeout ?? -1);
      return { data: { code: 0, data: null }, status: 200, statusText: 'OK', headers: {}, config };
    };
  });

  it('is a minute for an ordinary call, not the chunk timeout', async () => {
    await client.api.get('/x');
    await client.api.post('/y', { a: 1 });
    expect(seen.splice(0)).toEqual([client.API_TIMEOUT_MS, client.API_TIMEOUT_MS]);
    expect(client.API_TIMEOUT_MS).toBe(60_000);
  });

  it('is ten minutes for a file body (an upload chunk), and a caller may set its own', async () => {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(8)]));
    await client.api.post('/upload/large', form, { allowMultiple: true });
    await client.api.get('/z', { timeout: 5_000 });
    expect(seen.splice(0)).toEqual([client.FILE_BODY_TIMEOUT_MS, 5_000]);
  });
});
