import { UPLOAD_CHUNK_BYTES } from '../../../src/core/constants.js';
import type { UploadStore } from './upload-store.js';
import { WorkerClient } from './worker-client.js';

interface Job {
  key: number;
  totalNum: number;
  /** Chunk numbers known to be written. */
  present: Set<number>;
  /** The next chunk number to take in order; all below are taken. */
  next: number;
  /** Taken but not yet handed to the worker. */
  unsent: number;
  timer?: NodeJS.Timeout;
}

/**
 * Chunks handed to the worker per message. Each message wakes the worker thread, which cost the event loop
 * about half a millisecond on a loaded VM (profile of scripts/bench/upload.ts); the last few go with `finish`.
 */
const HANDOVER_BATCH = 4;

/**
 * Verifies a file while its chunks arrive instead of all at once at the end: each chunk that continues the file in
 * order is read back and hashed on a worker thread, so when the last chunk lands only the tail is left. The last
 * chunk itself is taken in only by `finish`, once the file has its final size (a last chunk sent again shorter
 * leaves stale bytes past it until then).
 * It follows the chunks this process wrote or found on disk when it started; chunks written meanwhile by another
 * process sharing the data dir are taken in by `finish`, from disk. All of this is a cache of the disk: after a
 * restart, or when an idle upload was dropped, `start` rebuilds it from the markers. Callers serialise calls per
 * upload id (the upload's lock).
 */
export class Assembler {
  private readonly jobs = new Map<string, Job>();
  /** A dead worker takes its jobs with it: forget them; the disk still has it all. */
  private readonly worker = new WorkerClient(() => {
    for (const [id, job] of this.jobs) this.forget(id, job);
  });

  constructor(
    private readonly store: UploadStore,
    /** total_md5 covers this many leading bytes (spec §9: 1 GiB); a parameter so tests need not write 1 GiB. */
    private readonly md5Limit: number,
    private readonly idleMs = 5 * 60_000,
  ) {}

  /** The chunks this process knows to be written, or undefined when it holds nothing for the upload. */
  present(id: string): ReadonlySet<number> | undefined {
    return this.jobs.get(id)?.present;
  }

  /** Begins tracking an upload of `totalNum` chunks whose chunks `onDisk` are already written; they are taken in right away. */
  async start(id: string, onDisk: Iterable<number>, totalNum: number): Promise<void> {
    await this.abort(id);
    const job: Job = { key: this.worker.nextKey(), totalNum, present: new Set(onDisk), next: 1, unsent: 0 };
    this.jobs.set(id, job);
    this.worker.post({ op: 'open', job: job.key, data: this.store.dataPath(id), md5Limit: this.md5Limit, chunkBytes: UPLOAD_CHUNK_BYTES });
    this.handOver(id, job);
    this.send(job);
  }

  /** Records newly written chunks and hands over whatever now continues the file in order. Needs `start` first. */
  add(id: string, ...nums: number[]): void {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`no assembly for ${id}`);
    for (const num of nums) job.present.add(num);
    this.handOver(id, job);
  }

  /**
   * Takes in the rest of the file, now `size` bytes long, and answers the MD5 of its first md5Limit bytes.
   * The job ends either way; a failure carries the file system's code (ENOSPC …).
   */
  async finish(id: string, size: number): Promise<{ md5: string }> {
    const job = this.jobs.get(id);
    if (!job) throw new Error(`no assembly for ${id}`);
    this.forget(id, job);
    this.send(job);
    const reply = await this.worker.request({ op: 'finish', job: job.key, size });
    if (!reply.ok) throw Object.assign(new Error(reply.message), { code: reply.code });
    return { md5: reply.md5! };
  }

  /** Stops following an upload (its data file and markers stay). */
  async abort(id: string): Promise<void> {
    const job = this.jobs.get(id);
    if (!job) return;
    this.forget(id, job);
    await this.worker.request({ op: 'abort', job: job.key });
  }

  async close(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((id) => this.abort(id).catch(() => undefined)));
    await this.worker.close();
  }

  private handOver(id: string, job: Job): void {
    while (job.next < job.totalNum && job.present.has(job.next)) {
      job.next++;
      job.unsent++;
    }
    if (job.unsent >= HANDOVER_BATCH) this.send(job);
    this.keepAlive(id, job);
  }

  private send(job: Job): void {
    if (job.unsent === 0) return;
    this.worker.post({ op: 'add', job: job.key, count: job.unsent });
    job.unsent = 0;
  }

  /** An upload left alone for a while gives back its descriptor and memory; resuming rebuilds them. */
  private keepAlive(id: string, job: Job): void {
    clearTimeout(job.timer);
    job.timer = setTimeout(() => void this.abort(id).catch(() => undefined), this.idleMs);
    job.timer.unref();
  }

  private forget(id: string, job: Job): void {
    clearTimeout(job.timer);
    this.jobs.delete(id);
  }
}
