import { createHash, randomBytes } from 'node:crypto';
import os from 'node:os';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { isNotFound } from '../../storage/errors.js';
import type { Storage } from '../../storage/storage.js';
import { checkedChunk } from './accept-chunk.js';
import { missingChunks, progress, uploadId, type ChunkAnswer, type ChunkFields } from './protocol.js';
import type { UploadOwner } from './ownership.js';
import type { HeldChunk } from './receive.js';
import {
  abandonedSharedUploads, beatSharedFinish, claimSharedFinish, forgetSharedChunk, forgetSharedChunks, markSharedChunk,
  releaseSharedFinish, sharedChunks, sharedFinishHeld,
} from './shared-queries.js';

export interface SharedChunkContext {
  db: Db;
  /** Object storage: the chunks, and the finished file, are there for every node. */
  storage: Storage;
  /** total_md5 covers this many leading bytes (spec §9: 1 GiB). */
  md5Limit: number;
  maxFileBytes?: number;
  /** How long a request waits for another process finishing the same file before answering "all present". */
  waitForOtherMs?: number;
  /** A finish claim whose heartbeat is older than this was left by a killed process and is taken over. */
  staleClaimMs?: number;
}

const HEARTBEAT_MS = 2_000;
const STALE_CLAIM_MS = 15_000;
const POLL_MS = 100;
/** Chunks read ahead while a finished file is assembled: object storage answers each GET after a round trip. */
const READ_AHEAD = 6;
/** Chunk objects removed at once after a finish. */
const REMOVE_AT_ONCE = 16;
/** Who claims a finish: enough to tell processes apart in the log and in the table. */
const OWNER = `${os.hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;

const partKey = (id: string, num: number) => `uploads/parts/${id}/${num}`;
const completeKey = (id: string, fileName: string) => `uploads/complete/${id}/${fileName}`;

/**
 * The chunked upload (spec §7) when files live in object storage (STORAGE_URL=s3://…): the chunks of one file may
 * reach any process of any app node, so nothing depends on a local disk. Each verified chunk is written as its own
 * object (`uploads/parts/<id>/<num>`), then recorded as present in the database; once all are, one process (a claim
 * row with a heartbeat) reads them in order, hashes them against total_md5 and streams them into one multipart
 * upload under `uploads/complete/<id>/<name>`, the key bind takes. A process killed while finishing stops beating,
 * and the next request of the file takes its claim over; a file that does not match is discarded whole, as on disk.
 */
export async function acceptSharedChunk(ctx: SharedChunkContext, raw: Record<string, string>, chunk: HeldChunk | undefined, owner: UploadOwner): Promise<ChunkAnswer> {
  const { f, size, bytes } = checkedChunk(raw, chunk, ctx.maxFileBytes);
  const id = uploadId(f, owner);
  const target = completeKey(id, f.fileName);
  const done = { code: 1 as const, path: target };
  if (await ctx.storage.stat(target)) return done;
  await ctx.storage.write(partKey(id, f.num), bytes);
  chunk!.release();
  await markSharedChunk(ctx.db, id, f.num, size);
  const present = await sharedChunks(ctx.db, id, f.totalNum);
  const lack = missingChunks(present.map((c) => c.num), f.totalNum);
  if (lack.length > 0) return { code: 0, msg: progress(f.totalNum - lack.length, f.totalNum), lack };
  return finishOnce(ctx, id, f, target, done);
}

/** Every chunk is present: finish the file, or wait for the process that does and answer as it did. */
async function finishOnce(ctx: SharedChunkContext, id: string, f: ChunkFields, target: string, done: ChunkAnswer): Promise<ChunkAnswer> {
  const until = Date.now() + (ctx.waitForOtherMs ?? 120_000);
  for (;;) {
    if (await claimSharedFinish(ctx.db, id, OWNER, Date.now() - (ctx.staleClaimMs ?? STALE_CLAIM_MS))) {
      try {
        return await finish(ctx, id, f, target, done);
      } finally {
        await releaseSharedFinish(ctx.db, id, OWNER).catch(() => undefined);
      }
    }
    if (await ctx.storage.stat(target)) return done;
    // No claim, no chunks and no file: the holder found the file did not match total_md5 and discarded it.
    if (!(await sharedFinishHeld(ctx.db, id)) && (await sharedChunks(ctx.db, id, f.totalNum)).length === 0) {
      throw new AppError(422, 'upload.file_md5_mismatch', { file: f.fileName });
    }
    if (Date.now() >= until) return { code: 0, msg: progress(f.totalNum, f.totalNum), lack: [] };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Reads the chunks in order (a few ahead), hashes the first md5Limit bytes and writes them into one multipart
 * upload that becomes visible only when complete. A chunk whose object is gone is asked for again.
 */
async function finish(ctx: SharedChunkContext, id: string, f: ChunkFields, target: string, done: ChunkAnswer): Promise<ChunkAnswer> {
  // Taken over from a killed finisher that had already published: nothing left to do but tidy up.
  if (await ctx.storage.stat(target)) {
    await removeParts(ctx, id, f.totalNum);
    return done;
  }
  const chunks = await sharedChunks(ctx.db, id, f.totalNum);
  if (chunks.length < f.totalNum) return { code: 0, msg: progress(chunks.length, f.totalNum), lack: missingChunks(chunks.map((c) => c.num), f.totalNum) };
  const beat = setInterval(() => void beatSharedFinish(ctx.db, id, OWNER).catch(() => undefined), HEARTBEAT_MS);
  const writer = await ctx.storage.createWriter(target);
  let published = false;
  try {
    const md5 = createHash('md5');
    let hashed = 0;
    // A read ahead may fail before its turn (a lost chunk, the write failing first): it is awaited or dropped, never unhandled.
    const read = (i: number) => {
      const bytes = ctx.storage.readRange(partKey(id, i + 1), 0, chunks[i]!.size);
      bytes.catch(() => undefined);
      return bytes;
    };
    const ahead: Promise<Buffer>[] = [];
    for (let i = 0; i < Math.min(READ_AHEAD, chunks.length); i++) ahead.push(read(i));
    for (let i = 0; i < chunks.length; i++) {
      let bytes: Buffer;
      try {
        bytes = await ahead[i]!;
      } catch (err) {
        if (!isNotFound(err)) throw err;
        // Recorded but not there (removed by hand, or a bucket that lost it): that chunk is missing after all.
        await Promise.allSettled(ahead.slice(i + 1));
        await forgetSharedChunk(ctx.db, id, i + 1);
        return { code: 0, msg: progress(chunks.length - 1, f.totalNum), lack: [i + 1] };
      }
      if (i + READ_AHEAD < chunks.length) ahead.push(read(i + READ_AHEAD));
      const take = Math.min(bytes.length, Math.max(0, ctx.md5Limit - hashed));
      if (take > 0) md5.update(take === bytes.length ? bytes : bytes.subarray(0, take));
      hashed += take;
      await writer.write(bytes);
    }
    if (md5.digest('hex') !== f.totalMd5) {
      await removeParts(ctx, id, f.totalNum);
      throw new AppError(422, 'upload.file_md5_mismatch', { file: f.fileName });
    }
    await writer.finish();
    published = true;
  } finally {
    clearInterval(beat);
    if (!published) await writer.abort().catch(() => undefined);
  }
  await removeParts(ctx, id, f.totalNum);
  return done;
}

/** The chunk objects, then their rows: a row never outlives its object for long, and the sweep takes what is left. */
async function removeParts(ctx: SharedChunkContext, id: string, totalNum: number): Promise<void> {
  for (let start = 1; start <= totalNum; start += REMOVE_AT_ONCE) {
    const nums = Array.from({ length: Math.min(REMOVE_AT_ONCE, totalNum - start + 1) }, (_, k) => start + k);
    await Promise.all(nums.map((n) => ctx.storage.remove(partKey(id, n))));
  }
  await forgetSharedChunks(ctx.db, id);
}

/**
 * Removes uploads nobody has sent a chunk of for `maxAgeMs` (abandoned, or a late duplicate's chunk after the file
 * finished): their chunk objects and rows. Best effort: a second process sweeping at once removes the same things.
 */
export async function sweepSharedUploads(ctx: SharedChunkContext, maxAgeMs: number): Promise<number> {
  const ids = await abandonedSharedUploads(ctx.db, Date.now() - maxAgeMs, 100);
  for (const id of ids) {
    for (const o of await ctx.storage.list(`uploads/parts/${id}`)) await ctx.storage.remove(o.key);
    await forgetSharedChunks(ctx.db, id);
  }
  return ids.length;
}
