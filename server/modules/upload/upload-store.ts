import { randomBytes } from 'node:crypto';
import { constants as fsConstants, createReadStream } from 'node:fs';
import fs, { type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_CHUNK_BYTES } from '../../../src/core/constants.js';
import type { Storage } from '../../storage/storage.js';
import { keyUnder } from '../../storage/storage-key.js';
import { isInside } from '../slides/paths.js';
import { GroupFlush } from './group-flush.js';

/**
 * Where uploads live under the data dir. Everything is on disk, so an upload survives a restart:
 *   uploads/parts/<id>/data           the file being built: each verified chunk is written at its offset
 *   uploads/parts/<id>/<num>          an empty marker, made only after chunk <num> is written: "present"
 *   uploads/parts/<id>/finishing      who is verifying and publishing the file (finish-claim.ts)
 *   uploads/complete/<id>/<name>      the finished, verified file (parts/<id>/data renamed)
 *   uploads/tmp/<random>              an attachment being received
 *   uploads/tmp/parts-<random>/       a parts dir being removed (renamed here first, so it vanishes at once)
 *   uploads/attachments/<random>/<name>   a kept attachment (case images among them)
 * With object storage, `complete/` and `attachments/` are keys in the bucket instead (publish), so every node sees them.
 * Only bytes whose MD5 matched are ever written into `data`, so two requests carrying the same chunk write
 * the same bytes, and a refused chunk leaves no trace. Finished files appear under their final name only by
 * rename(2) (same file system), so a reader never sees half of one.
 */
export class UploadStore {
  readonly root: string;
  private readonly tmpDir: string;
  /** Directory checks cost a system call per request; they are made once and again only after an ENOENT. */
  private tmpDirMade = false;
  private readonly flushes = new GroupFlush();

  /**
   * `storage`: where finished files and kept attachments go. On object storage (STORAGE_URL=s3://…) either is
   * streamed into a multipart upload under its key (`uploads/complete/<id>/<name>`, `uploads/attachments/<random>/<name>`)
   * and its local file removed, so the whole file is never on local disk twice and every node sees it; chunks in
   * progress and attachments being received stay here.
   */
  constructor(readonly dataDir: string, private readonly storage?: Storage) {
    this.root = path.join(dataDir, 'uploads');
    this.tmpDir = path.join(this.root, 'tmp');
  }

  /** A fresh path in the staging dir; nothing is created there yet. */
  async tempPath(): Promise<string> {
    if (!this.tmpDirMade) {
      await fs.mkdir(this.tmpDir, { recursive: true });
      this.tmpDirMade = true;
    }
    return path.join(this.tmpDir, randomBytes(16).toString('hex'));
  }

  /** A new empty file in the staging dir, open for writing; the dir is made again if it was cleaned away. */
  async createTemp(): Promise<{ path: string; handle: FileHandle }> {
    let temp: { path: string; handle: FileHandle } | undefined;
    const open = async () => {
      const tmpPath = await this.tempPath();
      temp = { path: tmpPath, handle: await fs.open(tmpPath, 'wx') };
    };
    await retryOnMissingDir(open, async () => {
      this.tmpDirMade = false;
    });
    return temp!;
  }

  partsDir(id: string): string {
    return path.join(this.root, 'parts', id);
  }

  /** The marker saying chunk `num` is written. */
  markerPath(id: string, num: number): string {
    return path.join(this.partsDir(id), String(num));
  }

  dataPath(id: string): string {
    return path.join(this.partsDir(id), 'data');
  }

  completePath(id: string, fileName: string): string {
    return path.join(this.root, 'complete', id, fileName);
  }

  /** Paths handed to other modules are relative to the data dir, with forward slashes. */
  relative(absolute: string): string {
    return path.relative(this.dataDir, absolute).split(path.sep).join('/');
  }

  /**
   * Writes a verified chunk at its offset in the upload's data file and flushes it to the disk (fdatasync) before
   * returning: the chunk's marker is made only after this, and the client never sends a chunk again once told it
   * is present, so a chunk that was answered must survive a power cut, not only a crash of this process.
   * The flush is a group commit (group-flush.ts): chunks written while a flush of the file runs share the next
   * one, so 4 chunks in flight cost about one flush a batch instead of one each; flushing only at assembly would
   * leave answered chunks in the page cache for up to a minute.
   * The parts dir is made only when missing, and not at all if `isComplete` says the file was finished meanwhile
   * (the dir is removed after assembly, so a late duplicate must not bring it back).
   */
  async writeChunk(id: string, num: number, chunkBytes: number, bytes: Buffer, isComplete: () => Promise<boolean>): Promise<'written' | 'complete'> {
    const write = async () => {
      const handle = await fs.open(this.dataPath(id), fsConstants.O_RDWR | fsConstants.O_CREAT, 0o644);
      try {
        let done = 0;
        while (done < bytes.length) done += (await handle.write(bytes, done, bytes.length - done, (num - 1) * chunkBytes + done)).bytesWritten;
      } finally {
        await handle.close();
      }
      await this.flushes.flush(this.dataPath(id));
    };
    return this.inPartsDir(id, write, isComplete);
  }

  /**
   * Records that chunk `num` is written; the same guard as `writeChunk`. The last chunk's marker holds its
   * length, which fixes the file's size (a longer write left by an earlier, refused file cannot survive).
   * The marker is not flushed itself: should a power cut lose it, the server only asks for that chunk again.
   * It can never outlive its bytes, which reached the disk before it was made.
   */
  async markChunk(id: string, num: number, content: string, isComplete: () => Promise<boolean>): Promise<'written' | 'complete'> {
    const marker = this.markerPath(id, num);
    if (content === '') return this.inPartsDir(id, () => fs.writeFile(marker, ''), isComplete);
    // Written aside and renamed: a marker is present as soon as its name exists, and writeFile creates the file before
    // it writes, so a finisher in another process read '' as length 0, cut the last chunk off and discarded the upload.
    return this.inPartsDir(id, async () => {
      const aside = `${marker}.${randomBytes(6).toString('hex')}`;
      await fs.writeFile(aside, content);
      await fs.rename(aside, marker);
    }, isComplete);
  }

  /** Takes back a marker that cannot be trusted: its chunk counts as missing again. */
  async unmark(id: string, num: number): Promise<void> {
    await fs.rm(this.markerPath(id, num), { force: true });
  }

  /** Cuts the data file to the size its chunks add up to (every chunk but the last is `chunkBytes` long) and answers it. */
  async trimData(id: string, totalNum: number, chunkBytes: number): Promise<number> {
    const size = await this.fileSize(id, totalNum, chunkBytes);
    await fs.truncate(this.dataPath(id), size);
    return size;
  }

  /** The file's size as its markers fix it: every chunk but the last is `chunkBytes` long, the last's marker holds its length. */
  async fileSize(id: string, totalNum: number, chunkBytes = UPLOAD_CHUNK_BYTES): Promise<number> {
    const text = await fs.readFile(this.markerPath(id, totalNum), 'utf8');
    // Never guessed: a wrong size would cut the file and fail a good upload's MD5.
    if (!/^\d+$/.test(text)) throw Object.assign(new Error(`the last chunk's marker of ${id} holds ${JSON.stringify(text)}, not a length`), { code: 'EBADMARKER' });
    const lastSize = Number(text);
    return (totalNum - 1) * chunkBytes + lastSize;
  }

  private async inPartsDir(id: string, step: () => Promise<unknown>, isComplete: () => Promise<boolean>): Promise<'written' | 'complete'> {
    let complete = false;
    await retryOnMissingDir(step, async () => {
      complete = await isComplete();
      if (!complete) await fs.mkdir(this.partsDir(id), { recursive: true });
    }, () => !complete);
    return complete ? 'complete' : 'written';
  }

  /** Numbers of the chunks on disk, within 1..total. */
  async presentChunks(id: string, total: number): Promise<number[]> {
    let names: string[];
    try {
      names = await fs.readdir(this.partsDir(id));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
      throw err;
    }
    return names.filter((n) => /^[1-9]\d*$/.test(n)).map(Number).filter((n) => n <= total);
  }

  /**
   * Removes an upload's parts dir in one step, as other processes see it: renamed into the staging dir, then deleted
   * there. `rm -r` alone is not atomic: a process could find the dir half removed and take a finish claim in it,
   * or list some markers but not others (a finished 1 GiB upload was answered 500, and its last chunk 422, in
   * scripts/bench/upload.ts with 2 workers).
   */
  async removeParts(id: string): Promise<void> {
    await fs.mkdir(this.tmpDir, { recursive: true });
    const doomed = path.join(this.tmpDir, `parts-${randomBytes(8).toString('hex')}`);
    try {
      await fs.rename(this.partsDir(id), doomed);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return; // already gone
      throw err;
    }
    await this.removeTree(doomed);
  }

  /** Deletes a renamed-away parts dir; a seam for the test that looks at the store while it runs. */
  protected async removeTree(dir: string): Promise<void> {
    // Retries: a late duplicate that opened the data file before the rename may still be writing into it.
    await fs.rm(dir, { recursive: true, force: true, maxRetries: 3 });
  }

  async exists(absolute: string): Promise<boolean> {
    const key = this.remoteKey(absolute);
    if (key) return !!(await this.storage!.stat(key));
    try {
      await fs.access(absolute);
      return true;
    } catch {
      return false;
    }
  }

  /**
   * Moves a finished file into place under `target`, creating its directory. The bytes and the rename both
   * reach the disk before this returns: once the client hears "done" it drops its copy of the work.
   */
  async publish(file: string, target: string): Promise<void> {
    const key = this.remoteKey(target);
    if (key) return this.publishRemote(file, key);
    await sync(file);
    await fs.mkdir(path.dirname(target), { recursive: true });
    await fs.rename(file, target);
    await sync(path.dirname(target));
  }

  /** The key of a finished file or kept attachment when those are in object storage; null for everything kept here. */
  private remoteKey(absolute: string): string | null {
    if (this.storage?.kind !== 's3') return null;
    if (!REMOTE_DIRS.some((dir) => isInside(path.join(this.root, dir), absolute))) return null;
    return keyUnder(this.dataDir, absolute);
  }

  /** The data file, read once, sent as the parts of one multipart upload; visible under its key only when complete. */
  private async publishRemote(file: string, key: string): Promise<void> {
    const writer = await this.storage!.createWriter(key);
    try {
      for await (const chunk of createReadStream(file, { highWaterMark: 2 ** 20 })) await writer.write(chunk as Buffer);
      await writer.finish();
    } catch (err) {
      await writer.abort();
      throw err;
    }
    await fs.rm(file, { force: true });
  }

  /**
   * Removes staging files older than `maxAgeMs`, left by a process that stopped mid-request. Only old ones:
   * another API node sharing the data dir may be writing the young ones.
   */
  async sweepTemp(maxAgeMs: number, now = Date.now()): Promise<number> {
    let removed = 0;
    for (const name of await fs.readdir(this.tmpDir).catch(() => [] as string[])) {
      const file = path.join(this.tmpDir, name);
      const stat = await fs.stat(file).catch(() => undefined);
      // Directories are parts dirs renamed here for removal by a process that stopped before it was done.
      if (stat && (stat.isFile() || stat.isDirectory()) && now - stat.mtimeMs > maxAgeMs) {
        await fs.rm(file, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  attachmentPath(fileName: string): string {
    return path.join(this.root, 'attachments', randomBytes(16).toString('hex'), fileName);
  }
}

/** The folders under uploads/ whose files live in object storage when the app uses it: every node must see them. */
const REMOTE_DIRS = ['complete', 'attachments'];

/** Runs `step`; if it fails for want of a directory, runs `makeDir` and, unless told not to, tries once more. */
async function retryOnMissingDir(step: () => Promise<unknown>, makeDir: () => Promise<unknown>, retry: () => boolean = () => true): Promise<void> {
  try {
    await step();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    await makeDir();
    if (retry()) await step();
  }
}

/** fsync of a file, or of a directory so that a rename in it survives a power cut. Cheap when nothing is dirty. */
async function sync(file: string): Promise<void> {
  const handle = await fs.open(file, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}
