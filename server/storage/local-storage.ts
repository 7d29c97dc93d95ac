import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { AppError } from '../http/errors.js';
import { checkKey, objectNotFound } from './errors.js';
import { MAX_RANGE_BYTES, refuseRange } from './limits.js';
import type { LocalCopy, ObjectStat, ObjectWriter, Storage } from './storage.js';

/**
 * The data directory as storage: a key is the file at `<root>/<key>`, the layout the app always had (STORAGE_URL
 * unset or `file:`). Writes go to a `.partial` name beside the target and are renamed into place whole.
 */
export class LocalStorage implements Storage {
  readonly kind = 'local' as const;
  private readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** The file of a key: storage-key.ts refuses anything that could leave the root. */
  pathOf(key: string): string {
    return path.join(this.root, checkKey(key));
  }

  async stat(key: string): Promise<ObjectStat | null> {
    const stat = await fs.stat(this.pathOf(key)).catch(() => null);
    if (!stat) return null;
    return { size: stat.isDirectory() ? 0 : stat.size, mtimeMs: stat.mtimeMs, tag: `${stat.dev}:${stat.ino}:${stat.size}:${stat.mtimeMs}`, folder: stat.isDirectory() || undefined };
  }

  async readRange(key: string, position: number, length: number): Promise<Buffer> {
    refuseRange(length, MAX_RANGE_BYTES);
    // Opened per read, not pooled: another process may have renamed a new file over this one (a thumbnail remade).
    // The tile path keeps its own pool, checked against the file's identity (tiles/slide-store.ts).
    const handle = await fs.open(this.pathOf(key), 'r').catch((err: unknown) => { throw missing(err, key); });
    try {
      const buffer = Buffer.allocUnsafe(length);
      const { bytesRead } = await handle.read(buffer, 0, length, position);
      return buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }

  async readStream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    const file = this.pathOf(key);
    const handle = await fs.open(file, 'r').catch((err: unknown) => { throw missing(err, key); });
    return handle.createReadStream({ start: range?.start, end: range?.end });
  }

  async write(key: string, body: Buffer | Readable): Promise<ObjectStat> {
    const writer = await this.createWriter(key);
    try {
      if (Buffer.isBuffer(body)) await writer.write(body);
      else for await (const chunk of body) await writer.write(chunk as Buffer);
      return await writer.finish();
    } catch (err) {
      await writer.abort();
      throw err;
    }
  }

  async createWriter(key: string): Promise<ObjectWriter> {
    const target = this.pathOf(key);
    await fs.mkdir(path.dirname(target), { recursive: true });
    const partial = `${target}.${randomBytes(4).toString('hex')}.partial`;
    const handle = await fs.open(partial, 'wx');
    let closed = false;
    const close = async () => { if (!closed) { closed = true; await handle.close(); } };
    return {
      write: async (chunk) => { await handle.write(chunk); },
      finish: async () => {
        await close();
        await fs.rename(partial, target);
        return (await this.stat(key))!;
      },
      abort: async () => {
        await close().catch(() => {});
        await fs.rm(partial, { force: true });
      },
    };
  }

  async list(prefix: string, limit = 10_000): Promise<{ key: string; size: number }[]> {
    const dir = this.pathOf(prefix);
    const found: { key: string; size: number }[] = [];
    const walk = async (folder: string): Promise<void> => {
      for (const entry of await fs.readdir(folder, { withFileTypes: true }).catch(() => [])) {
        if (found.length >= limit) return;
        const full = path.join(folder, entry.name);
        if (entry.isDirectory()) await walk(full);
        else if (entry.isFile()) found.push({ key: path.relative(this.root, full).split(path.sep).join('/'), size: (await fs.stat(full)).size });
      }
    };
    await walk(dir);
    return found.sort((a, b) => (a.key < b.key ? -1 : 1));
  }

  async remove(key: string): Promise<void> {
    const file = this.pathOf(key);
    await fs.rm(file, { force: true, recursive: true });
  }

  async move(from: string, to: string): Promise<void> {
    const [source, target] = [this.pathOf(from), this.pathOf(to)];
    await fs.mkdir(path.dirname(target), { recursive: true });
    // A link refuses an existing target where rename would replace it; across file systems, a copy that refuses too.
    try {
      await fs.link(source, target);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') throw objectNotFound(from);
      if (code === 'EEXIST') throw new AppError(409, 'storage.exists', { key: to });
      if (code !== 'EXDEV' && code !== 'EPERM') throw err;
      await fs.copyFile(source, target, constants.COPYFILE_EXCL).catch((e: unknown) => {
        throw (e as NodeJS.ErrnoException).code === 'EEXIST' ? new AppError(409, 'storage.exists', { key: to }) : e;
      });
    }
    await fs.unlink(source);
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const file = this.pathOf(key);
    if (!(await fs.stat(file).catch(() => null))) throw objectNotFound(key);
    return { path: file, release: async () => {} };
  }

  close(): void {
    // Nothing is held open between calls.
  }
}

const missing = (err: unknown, key: string) => ((err as NodeJS.ErrnoException).code === 'ENOENT' ? objectNotFound(key) : err);
