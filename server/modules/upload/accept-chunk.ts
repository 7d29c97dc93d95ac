import { UPLOAD_CHUNK_BYTES } from '../../../src/core/constants.js';
import { AppError } from '../../http/errors.js';
import type { Assembler } from './assembler.js';
import type { FinishClaims } from './finish-claim.js';
import type { UploadStore } from './upload-store.js';
import { formatBytes } from './format-bytes.js';
import type { KeyedLock } from './keyed-lock.js';
import {
  chunkSizeRange, minimumFileSize, missingChunks, parseChunkFields, progress, uploadId,
  type ChunkAnswer, type ChunkFields,
} from './protocol.js';
import type { UploadOwner } from './ownership.js';
import type { HeldChunk } from './receive.js';

export interface ChunkContext {
  store: UploadStore;
  /** One per process: serialises marking, counting and assembling per upload id within this process. */
  lock: KeyedLock;
  assembler: Assembler;
  /** Which process verifies and publishes a complete file, among all that share the data dir. */
  claims: FinishClaims;
  /** Largest file /upload/large accepts; undefined means no limit. */
  maxFileBytes?: number;
  /** How long a request waits for another process finishing the same file before answering "all present". */
  waitForOtherMs?: number;
}

/**
 * One step of the chunked upload (spec §7): check the chunk, keep it, and answer what is still missing,
 * or verify and finish the file once nothing is. The chunk arrives hashed, held in a pooled buffer.
 * The upload is the owner's: the same file from another user or hospital is another upload (ownership.ts).
 * Chunks of one file may reach different processes (cluster workers, API nodes sharing the data dir): every
 * step that decides is made against the disk, which they share, and one process at a time finishes (claims).
 */
export async function acceptChunk(ctx: ChunkContext, raw: Record<string, string>, chunk: HeldChunk | undefined, owner: UploadOwner): Promise<ChunkAnswer> {
  const { f, size, bytes } = checkedChunk(raw, chunk, ctx.maxFileBytes);
  const id = uploadId(f, owner);
  const target = ctx.store.completePath(id, f.fileName);
  const done = { code: 1 as const, path: ctx.store.relative(target) };
  const isComplete = () => ctx.store.exists(target);
  // Written outside the lock: only verified bytes reach the data file, so a chunk sent twice at once writes
  // the same bytes twice. It counts as present only once its marker exists, which happens under the lock.
  const written = await ctx.store.writeChunk(id, f.num, UPLOAD_CHUNK_BYTES, bytes, isComplete);
  chunk!.release();
  if (written === 'complete') return done;

  return ctx.lock.run(id, async () => {
    // First sight of this upload in this process, and the file is finished: a retry of a completed upload.
    // Same answer; whatever a late duplicate left in the parts dir goes.
    if (!ctx.assembler.knows(id) && (await isComplete())) {
      await ctx.store.removeParts(id);
      return done;
    }
    if ((await ctx.store.markChunk(id, f.num, f.num === f.totalNum ? String(size) : '', isComplete)) === 'complete') {
      await ctx.assembler.abort(id);
      return done;
    }
    // The job may be new, or gone while the chunk was written (dropped when idle): then the disk says what is there.
    if (ctx.assembler.knows(id)) ctx.assembler.add(id, f.num);
    else await ctx.assembler.start(id, await ctx.store.presentChunks(id, f.totalNum), f.totalNum);
    // The disk has the last word: other processes write chunks too, and markers may have been removed meanwhile.
    const onDisk = await ctx.store.presentChunks(id, f.totalNum);
    // What other processes wrote, for the follower: it need not wait for its next look at the disk.
    if (ctx.assembler.follows(id)) ctx.assembler.add(id, ...onDisk);
    const lack = missingChunks(onDisk, f.totalNum);
    if (lack.length > 0) return { code: 0, msg: progress(f.totalNum - lack.length, f.totalNum), lack };
    return finishOnce(ctx, id, f, target, done);
  });
}

/**
 * The protocol's checks of one chunk, before anything is kept: its fields, its size against its place in the file
 * and the configured limit, its MD5. Both ways of keeping chunks (the data dir here, object storage in
 * shared-chunks.ts) start with it.
 */
export function checkedChunk(raw: Record<string, string>, chunk: HeldChunk | undefined, maxFileBytes: number | undefined): { f: ChunkFields; size: number; bytes: Buffer } {
  const parsed = parseChunkFields(raw);
  if (!parsed.ok) throw new AppError(422, 'error.validation', {}, parsed.errors);
  const f = parsed.fields;
  if (!chunk) throw new AppError(422, 'error.validation', {}, { blob: [{ key: 'upload.blob_missing' }] });
  if (chunk.truncated) throw new AppError(413, 'upload.chunk_too_large', { max: formatBytes(UPLOAD_CHUNK_BYTES) });
  const size = chunk.bytes.length;
  checkFileSize(maxFileBytes, f, size);
  const range = chunkSizeRange(f);
  if (size < range.min || size > range.max) {
    const expected = range.min === range.max ? String(range.min) : `${range.min}–${range.max}`;
    throw new AppError(422, 'upload.chunk_size_invalid', { num: f.num, size, expected });
  }
  if (chunk.md5 !== f.md5) throw new AppError(422, 'upload.chunk_md5_mismatch', { num: f.num });
  return { f, size, bytes: chunk.bytes };
}

/** The configured limit, checked as early as the fields allow: before any byte of an oversized file is kept. */
function checkFileSize(maxFileBytes: number | undefined, f: ChunkFields, chunkSize: number): void {
  if (maxFileBytes === undefined) return;
  const size = f.num === f.totalNum && f.totalSize === undefined ? (f.totalNum - 1) * UPLOAD_CHUNK_BYTES + chunkSize : minimumFileSize(f);
  if (size > maxFileBytes) throw new AppError(413, 'upload.file_too_large', { max: formatBytes(maxFileBytes) });
}

const POLL_MS = 50;

/**
 * Every chunk is on disk: finish the file, unless another process already is; then wait for its outcome and
 * answer the same. A holder that gives up after a recoverable failure releases its claim, and this one tries.
 */
async function finishOnce(ctx: ChunkContext, id: string, f: ChunkFields, target: string, done: ChunkAnswer): Promise<ChunkAnswer> {
  const until = Date.now() + (ctx.waitForOtherMs ?? 120_000);
  for (;;) {
    const claim = await ctx.claims.claim(id);
    if (claim.kind === 'claimed') {
      try {
        await finish(ctx, id, f, target);
        return done;
      } catch (err) {
        await claim.release().catch(() => undefined);
        // The last chunk's marker holds no length (a power cut after its rename, before its bytes): that chunk is
        // not present after all, and the client sends it again.
        if ((err as NodeJS.ErrnoException).code === 'EBADMARKER') {
          await ctx.store.unmark(id, f.totalNum);
          return { code: 0, msg: progress(f.totalNum - 1, f.totalNum), lack: [f.totalNum] };
        }
        throw err;
      }
    }
    // A follower here keeps following: the finisher elsewhere waits for its digest.
    if (await ctx.store.exists(target)) {
      await ctx.assembler.abort(id);
      return done;
    }
    // The parts went without a finished file: the holder found the file did not match total_md5.
    if (claim.kind === 'gone') throw new AppError(422, 'upload.file_md5_mismatch', { file: f.fileName });
    // Still being finished elsewhere: the client asks again (the last chunk) on an empty lack.
    if (Date.now() >= until) return { code: 0, msg: progress(f.totalNum, f.totalNum), lack: [] };
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
}

/**
 * Verifies total_md5 against the follower's digest (assembler.ts), then renames the data file into place
 * and drops the markers. A file that does not match is discarded whole: its chunks cannot be told apart from
 * good ones, so the client starts over. Other failures (a full disk) keep everything, so the upload can resume.
 */
async function finish(ctx: ChunkContext, id: string, f: ChunkFields, target: string): Promise<void> {
  const size = await ctx.store.trimData(id, f.totalNum, UPLOAD_CHUNK_BYTES);
  const md5 = await ctx.assembler.digest(id, f.totalNum, size);
  if (md5 !== f.totalMd5) {
    await ctx.store.removeParts(id);
    await ctx.assembler.abort(id);
    throw new AppError(422, 'upload.file_md5_mismatch', { file: f.fileName });
  }
  await ctx.store.publish(ctx.store.dataPath(id), target);
  await ctx.store.removeParts(id);
  await ctx.assembler.abort(id);
}
