import { describe, expect, it } from 'vitest';
import { sendChunks, type ChunkAnswer, type SendOptions } from './sendChunks.js';

const MB2 = 2_097_152;
const file = (size: number) => Object.assign(new Blob([new Uint8Array(size)]), { name: 'a.svs' });

/** A fake server: knows which chunks it has; answers code 1 with a path once all are present. */
function fakeServer(total: number, have: number[] = [], fail: (num: number, attempt: number) => unknown = () => undefined) {
  const present = new Set(have);
  const sent: number[] = [];
  const attempts = new Map<number, number>();
  let concurrent = 0;
  let maxConcurrent = 0;
  const post = async (form: FormData): Promise<ChunkAnswer> => {
    const num = Number(form.get('num'));
    expect([...form.keys()]).toEqual(['file_name', 'num', 'total_num', 'md5', 'total_md5', 'total_size', 'blob']);
    expect(form.get('total_num')).toBe(String(total));
    sent.push(num);
    concurrent += 1;
    maxConcurrent = Math.max(maxConcurrent, concurrent);
    await new Promise((r) => setTimeout(r, 1));
    concurrent -= 1;
    const attempt = (attempts.get(num) ?? 0) + 1;
    attempts.set(num, attempt);
    const error = fail(num, attempt);
    if (error) throw error;
    present.add(num);
    const lack = Array.from({ length: total }, (_, i) => i + 1).filter((n) => !present.has(n));
    return lack.length === 0 ? { code: 1, path: 'upload/a.svs' } : { code: 0, msg: (total - lack.length) / total, lack };
  };
  return { post, sent, attempts, max: () => maxConcurrent };
}

const options = (size: number, post: SendOptions['post'], extra: Partial<SendOptions> = {}): SendOptions => ({
  file: file(size), totalMd5: 'f'.repeat(32), chunkMd5: async () => '0'.repeat(32), post,
  signal: new AbortController().signal, retryable: () => true, onProgress: () => {}, wait: (_ms, fn) => setTimeout(fn, 0), ...extra,
});

describe('sendChunks (spec §7 chunked upload)', () => {
  it('sends every chunk once, at most 4 at a time, and resolves with the path', async () => {
    const server = fakeServer(10);
    const progress: number[] = [];
    const path = await sendChunks(options(10 * MB2 - 5, server.post, { onProgress: (p) => progress.push(p) }));
    expect(path).toBe('upload/a.svs');
    expect([...server.sent].sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
    expect(server.max()).toBeLessThanOrEqual(4);
    expect(server.max()).toBeGreaterThan(1);
    expect(progress.every((p, i) => i === 0 || p > progress[i - 1]!)).toBe(true);
  });

  it('resumes: after the first answer only the chunks in lack are sent', async () => {
    const server = fakeServer(6, [2, 3, 4, 5]);
    await sendChunks(options(6 * MB2, server.post));
    expect(server.sent).toEqual([1, 6]);
  });

  it('retries a failing chunk and succeeds within 5 failures', async () => {
    const server = fakeServer(3, [], (num, attempt) => (num === 2 && attempt <= 5 ? new Error('network') : undefined));
    await expect(sendChunks(options(3 * MB2, server.post))).resolves.toBe('upload/a.svs');
    expect(server.attempts.get(2)).toBe(6);
  });

  it('rejects after more than 5 failures of one chunk (spec §8)', async () => {
    const server = fakeServer(3, [], (num) => (num === 3 ? new Error('network') : undefined));
    await expect(sendChunks(options(3 * MB2, server.post))).rejects.toThrow('network');
    expect(server.attempts.get(3)).toBe(6);
  });

  it('does not retry what retryable() refuses (a 4xx)', async () => {
    const server = fakeServer(2, [], () => new Error('422'));
    await expect(sendChunks(options(2 * MB2, server.post, { retryable: () => false }))).rejects.toThrow('422');
    expect(server.sent).toEqual([1]);
  });

  it('rejects with AbortError when canceled', async () => {
    const abort = new AbortController();
    const server = fakeServer(5);
    const running = sendChunks(options(5 * MB2, server.post, { signal: abort.signal }));
    abort.abort();
    await expect(running).rejects.toMatchObject({ name: 'AbortError' });
  });
});
