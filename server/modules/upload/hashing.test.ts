import { createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../../src/core/constants.js';
import { AppError } from '../../http/errors.js';
import { acceptChunk, type ChunkContext } from './accept-chunk.js';
import { Assembler } from './assembler.js';
import { BufferPool } from './buffer-pool.js';
import { CLAIM_STALE_MS, FinishClaims, isStaleClaim } from './finish-claim.js';
import { UploadStore } from './upload-store.js';
import { HashJob } from './hash-job.js';
import { KeyedLock } from './keyed-lock.js';
import { PrefixMd5 } from './md5.js';
import { uploadId } from './protocol.js';
import type { HeldChunk } from './receive.js';

/**
 * total_md5 covers only the first 1 GiB of a file (spec §9). Writing more than 1 GiB in a test is not
 * reasonable, so these tests run the same code with a small stand-in limit.
 */
const md5 = (bytes: Uint8Array | string) => createHash('md5').update(bytes).digest('hex');

let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-hashing-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

describe('PrefixMd5', () => {
  it('hashes only the bytes before the limit, however the input is split', () => {
    const h = new PrefixMd5(10);
    for (const piece of ['abcdefgh', 'ijklmnop', 'qrstuvwxyz']) h.update(Buffer.from(piece));
    expect(h.size).toBe(26);
    expect(h.digest()).toBe(md5('abcdefghij'));
  });

  it('is the plain MD5 when the input is shorter than the limit, or exactly as long', () => {
    const short = new PrefixMd5(100);
    short.update(Buffer.from('abc'));
    expect(short.digest()).toBe(md5('abc'));
    const exact = new PrefixMd5(3);
    exact.update(Buffer.from('abc'));
    exact.update(Buffer.from('d'));
    expect(exact.digest()).toBe(md5('abc'));
  });
});

describe('HashJob', () => {
  it('hashes the first md5Limit bytes of a data file, chunk after chunk', async () => {
    const data = path.join(dir, 'data');
    await fs.writeFile(data, 'helloworld!!!');
    const job = new HashJob(data, 7, 5, Buffer.alloc(5));
    job.add(1);
    job.add(1);
    expect(job.finish(13)).toEqual({ md5: md5('hellowo') });
  });

  it('hashes exactly the final size, not stale bytes past it, and reads through a small buffer', async () => {
    const data = path.join(dir, 'data');
    await fs.writeFile(data, 'hello world and stale bytes');
    const job = new HashJob(data, 100, 5, Buffer.alloc(3));
    job.add(1);
    expect(job.finish(11)).toEqual({ md5: md5('hello world') });
  });

  it('reports the first failure with its code when finishing, and a file shorter than its size', async () => {
    const job = new HashJob(path.join(dir, 'missing'), 100, 5, Buffer.alloc(5));
    job.add(1);
    expect(() => job.finish(5)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    const short = path.join(dir, 'short');
    await fs.writeFile(short, 'abc');
    expect(() => new HashJob(short, 100, 5, Buffer.alloc(5)).finish(5)).toThrow(expect.objectContaining({ code: 'ESHORT' }));
  });
});

describe('acceptChunk with a small total_md5 limit', () => {
  const LIMIT = CHUNK + 100;
  const data = Buffer.alloc(2 * CHUNK + 5000);
  for (let i = 0; i < data.length; i++) data[i] = (i * 31 + (i >> 11)) & 0xff;
  const chunk = (num: number) => data.subarray((num - 1) * CHUNK, num * CHUNK);

  async function context(): Promise<ChunkContext> {
    const store = new UploadStore(dir);
    return { store, lock: new KeyedLock(), assembler: new Assembler(store, LIMIT), claims: new FinishClaims((id) => store.partsDir(id)) };
  }

  const pool = new BufferPool(1, CHUNK);
  async function held(bytes: Buffer): Promise<HeldChunk> {
    const lease = await pool.acquire();
    bytes.copy(lease.buffer);
    return { bytes: lease.buffer.subarray(0, bytes.length), md5: md5(bytes), truncated: false, release: lease.release };
  }

  const send = async (ctx: ChunkContext, num: number, totalMd5: string) =>
    acceptChunk(ctx, { file_name: 'big.svs', num: String(num), total_num: '3', md5: md5(chunk(num)), total_md5: totalMd5 }, await held(chunk(num)), { userId: 1, hospitalId: 1 });

  it('accepts the MD5 of the leading bytes and assembles the whole file', async () => {
    const ctx = await context();
    const totalMd5 = md5(data.subarray(0, LIMIT));
    expect(await send(ctx, 2, totalMd5)).toEqual({ code: 0, msg: 0.3333, lack: [1, 3] });
    expect(await send(ctx, 1, totalMd5)).toEqual({ code: 0, msg: 0.6666, lack: [3] });
    const done = await send(ctx, 3, totalMd5);
    expect(done).toMatchObject({ code: 1 });
    expect((await fs.readFile(path.join(dir, (done as { path: string }).path))).equals(data)).toBe(true);
    await ctx.assembler.close();
  });

  it('refuses the MD5 of the whole file, which is not what the protocol asks for past the limit', async () => {
    const ctx = await context();
    for (const num of [1, 2]) await send(ctx, num, md5(data));
    await expect(send(ctx, 3, md5(data))).rejects.toMatchObject({ status: 422, key: 'upload.file_md5_mismatch' });
    expect(await fs.readdir(path.join(dir, 'uploads', 'parts'))).toEqual([]);
    expect(await fs.readdir(path.join(dir, 'uploads', 'complete')).catch(() => [])).toEqual([]);
    await ctx.assembler.close();
  });

  it('asks for the last chunk again when its marker holds no length (left empty by a power cut), and then finishes', async () => {
    const ctx = await context();
    const totalMd5 = md5(data.subarray(0, LIMIT));
    const id = uploadId({ fileName: 'big.svs', num: 1, totalNum: 3, md5: '', totalMd5 }, { userId: 1, hospitalId: 1 });
    expect(await send(ctx, 3, totalMd5)).toMatchObject({ code: 0, lack: [1, 2] });
    await fs.writeFile(ctx.store.markerPath(id, 3), '');
    await send(ctx, 1, totalMd5);
    expect(await send(ctx, 2, totalMd5)).toEqual({ code: 0, msg: 0.6666, lack: [3] });
    expect(await fs.readdir(ctx.store.partsDir(id))).not.toContain('3');
    const done = await send(ctx, 3, totalMd5);
    expect(done).toMatchObject({ code: 1 });
    expect((await fs.readFile(path.join(dir, (done as { path: string }).path))).equals(data)).toBe(true);
    await ctx.assembler.close();
  });

  it('passes a file system failure of the worker on with its code, and keeps what is on disk', async () => {
    const ctx = await context();
    const id = uploadId({ fileName: 'big.svs', num: 1, totalNum: 3, md5: '', totalMd5: md5(data) }, { userId: 1, hospitalId: 1 });
    await fs.mkdir(ctx.store.partsDir(id), { recursive: true });
    await ctx.assembler.start(id, [], 3);
    expect(ctx.assembler.follows(id)).toBe(true);
    ctx.assembler.add(id, 1);
    const failure = await ctx.assembler.digest(id, 3, 3 * CHUNK).catch((err: unknown) => err);
    expect(failure).not.toBeInstanceOf(AppError);
    expect(failure).toMatchObject({ code: 'ENOENT' });
    expect(ctx.assembler.follows(id)).toBe(false);
    await ctx.assembler.close();
  });
});

describe('Assembler with several processes on one data dir', () => {
  const LIMIT = CHUNK + 100;
  const data = Buffer.alloc(2 * CHUNK + 5000);
  for (let i = 0; i < data.length; i++) data[i] = (i * 7 + (i >> 9)) & 0xff;
  const expected = md5(data.subarray(0, LIMIT));
  const never = async () => false;

  /** Two assemblers on one store stand for two processes; the file is on disk, its markers made by `mark`. */
  async function twoProcesses(id: string) {
    const store = new UploadStore(dir);
    await fs.mkdir(store.partsDir(id), { recursive: true });
    await fs.writeFile(store.dataPath(id), data);
    const mark = (num: number) => store.markChunk(id, num, num === 3 ? '5000' : '', never);
    return { store, a: new Assembler(store, LIMIT), b: new Assembler(store, LIMIT), mark };
  }

  it('lets one process follow the file; the other finishes with its digest and hashes nothing itself', async () => {
    const { a, b, mark } = await twoProcesses('shared');
    await mark(1);
    await a.start('shared', [1], 3);
    await b.start('shared', [1], 3);
    expect([a.follows('shared'), b.follows('shared')]).toEqual([true, false]);
    expect(b.knows('shared')).toBe(true);
    // b writes chunks 2 and 3: a finds them on disk by itself.
    await mark(2);
    b.add('shared', 2);
    await mark(3);
    b.add('shared', 3);
    expect(await b.digest('shared', 3, data.length)).toBe(expected);
    expect(b.follows('shared')).toBe(false);
    // A request that reaches the follower after its digest (a chunk's answer still on its way) starts nothing again.
    expect(a.knows('shared')).toBe(true);
    a.add('shared', 3);
    expect(a.follows('shared')).toBe(false);
    await Promise.all([a.close(), b.close()]);
  });

  it('follows the file itself when the follower is gone, from what the disk holds', async () => {
    const { a, b, mark } = await twoProcesses('orphan');
    await a.start('orphan', [], 3);
    await b.start('orphan', [], 3);
    await a.close(); // gives up its claim, as an idle upload is dropped
    for (const num of [1, 2, 3]) await mark(num);
    expect(await b.digest('orphan', 3, data.length)).toBe(expected);
    await b.close();
  });
});

describe('isStaleClaim', () => {
  const owner = { host: 'here', pid: 41, nonce: 'n', at: 1_000 };
  const here = (alive: boolean) => ({ host: 'here', alive: () => alive });

  it('takes over a claim whose process is gone on this machine, at once', () => {
    expect(isStaleClaim(owner, 1_001, here(false))).toBe(true);
    expect(isStaleClaim(owner, 1_000 + CLAIM_STALE_MS * 10, here(true))).toBe(false);
  });

  it('takes over a claim of another machine only when it is too old to be a live finish, and never an unreadable one', () => {
    const there = { ...owner, host: 'there' };
    expect(isStaleClaim(there, 1_000 + CLAIM_STALE_MS, here(true))).toBe(false);
    expect(isStaleClaim(there, 1_001 + CLAIM_STALE_MS, here(true))).toBe(true);
    expect(isStaleClaim(null, Number.MAX_SAFE_INTEGER, here(false))).toBe(false);
  });
});
