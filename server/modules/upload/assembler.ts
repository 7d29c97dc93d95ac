import fs from 'node:fs/promises';
import path from 'node:path';
import { UPLOAD_CHUNK_BYTES } from '../../../src/core/constants.js';
import { FinishClaims } from './finish-claim.js';
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
  /** Gives up this process's `hashing` claim. */
  release: () => Promise<void>;
  timer?: NodeJS.Timeout;
  /** The next look at the disk for chunks other processes wrote. */
  poll?: NodeJS.Timeout;
  /** The digest, once every chunk is present; the job ends with it. */
  completing?: Promise<Digest>;
}

/** What the follower leaves in the parts dir for whichever process finishes: the MD5 of a file of `size` bytes. */
interface Digest {
  size: number;
  md5?: string;
  /** The file system's code when hashing failed (ENOSPC, EIO …). */
  code?: string;
  message?: string;
}

/**
 * Chunks handed to the worker per message. Each message wakes the worker thread, which cost the event loop
 * about half a millisecond on a loaded VM (profile of scripts/bench/upload.ts); the last few go with `finish`.
 */
const HANDOVER_BATCH = 4;
/** How often a follower looks at the disk while a later chunk is known and the next one in order is not (another process wrote it). */
const POLL_MS = 20;
/** How often it looks when it knows of no later chunk: the next one may simply not have been sent yet. */
const IDLE_POLL_MS = 200;
const DIGEST_FILE = 'digest';

/**
 * Verifies a file while its chunks arrive instead of all at once at the end: the chunks that continue the file in
 * order are read back and hashed on a worker thread, so when the last chunk lands nothing is left to hash.
 * One process follows each upload, whichever first claims its `hashing` file (O_EXCL, as the finish claim) among
 * all that share the data dir (WORKERS processes take the chunks of one upload in turn): it takes in the chunks it
 * writes as they come, and those others write from their markers on disk. Once every chunk is present it writes
 * the file's MD5 to `digest` in the parts dir, where the process that finishes the file (finish-claim.ts) reads
 * it; a finisher that finds no live follower (it died, or dropped an idle upload) follows the file itself.
 * So every byte is read back and hashed once, by one process, and never after the last chunk in the common case.
 * All of this is a cache of the disk: after a restart `start` rebuilds it from the markers. Callers serialise
 * calls per upload id (the upload's lock).
 */
export class Assembler {
  private readonly jobs = new Map<string, Job>();
  /** Uploads this process has seen but another follows: only when they were last seen, to forget them. */
  private readonly passive = new Map<string, NodeJS.Timeout>();
  /** Claims kept after their job ended with a digest: the digest is there, nobody need follow again. */
  private readonly held = new Map<string, () => Promise<void>>();
  private readonly followers: FinishClaims;
  /**
   * A dead worker takes its jobs with it: forget them, and give up their claims so that the next digest (here or in
   * another process) follows the file again; the disk still has it all.
   */
  private readonly worker = new WorkerClient(() => {
    for (const [id, job] of this.jobs) {
      this.forget(id, job);
      void job.release().catch(() => undefined);
    }
  });

  constructor(
    private readonly store: UploadStore,
    /** total_md5 covers this many leading bytes (spec §9: 1 GiB); a parameter so tests need not write 1 GiB. */
    private readonly md5Limit: number,
    private readonly idleMs = 5 * 60_000,
    /** How long `digest` waits for a live follower in another process. */
    private readonly waitForFollowerMs = 120_000,
  ) {
    this.followers = new FinishClaims((id) => store.partsDir(id), 'hashing');
  }

  /**
   * Whether this process has seen the upload since it was last dropped (as follower, as one whose job ended with the
   * digest, or not following): a request of a known upload never starts a new job, which would hash it all again.
   */
  knows(id: string): boolean {
    return this.jobs.has(id) || this.passive.has(id) || this.held.has(id);
  }

  /** Whether this process follows the upload (holds its `hashing` claim and hashes it). */
  follows(id: string): boolean {
    return this.jobs.has(id);
  }

  /**
   * Begins tracking an upload of `totalNum` chunks whose chunks `onDisk` are already written: this process follows
   * it if no live process does yet, and takes those chunks in right away.
   */
  async start(id: string, onDisk: Iterable<number>, totalNum: number): Promise<void> {
    await this.abort(id);
    const claim = await this.followers.claim(id);
    if (claim.kind !== 'claimed') {
      this.keepPassive(id);
      return;
    }
    this.follow(id, claim.release, onDisk, totalNum);
  }

  /** Records chunks known to be written and hands over whatever now continues the file in order. Needs `start` first. */
  add(id: string, ...nums: number[]): void {
    const job = this.jobs.get(id);
    if (!job) {
      if (this.held.has(id)) return; // its digest is written: nothing left to take in
      if (!this.passive.has(id)) throw new Error(`no assembly for ${id}`);
      this.keepPassive(id);
      return;
    }
    for (const num of nums) job.present.add(num);
    this.progress(id, job);
  }

  /**
   * The MD5 of the first md5Limit bytes of the complete file, now `size` bytes long: the follower's, here or in
   * another process (waiting for it while it lives), else hashed here from the disk. A failure carries the file
   * system's code (ENOSPC …).
   */
  async digest(id: string, totalNum: number, size: number): Promise<string> {
    const until = Date.now() + this.waitForFollowerMs;
    for (;;) {
      const job = this.jobs.get(id);
      const found = job ? await this.complete(id, job, size) : await this.readDigest(id);
      if (found?.size === size) {
        if (found.md5 === undefined) throw Object.assign(new Error(found.message ?? 'hashing failed'), { code: found.code });
        return found.md5;
      }
      if (job) continue; // it hashed another size (a last chunk sent again, shorter): it is gone now, start over
      const claim = await this.followers.claim(id);
      if (claim.kind === 'claimed') {
        // Nobody follows it any more: this process does, from what the disk holds.
        this.passiveForget(id);
        this.follow(id, claim.release, await this.store.presentChunks(id, totalNum), totalNum);
        continue;
      }
      if (claim.kind === 'gone') throw Object.assign(new Error(`the parts of ${id} are gone`), { code: 'ENOENT' });
      const ours = this.held.get(id);
      if (ours) {
        // Our own claim, kept after a job that hashed another size: give it up and follow again.
        this.held.delete(id);
        await ours();
        continue;
      }
      if (Date.now() >= until) throw Object.assign(new Error(`no digest of ${id} from its follower`), { code: 'ETIMEDOUT' });
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  }

  /** Stops following an upload (its data file and markers stay) and gives up the claim, so another may follow. */
  async abort(id: string): Promise<void> {
    this.passiveForget(id);
    const kept = this.held.get(id);
    this.held.delete(id);
    await kept?.().catch(() => undefined);
    const job = this.jobs.get(id);
    if (!job) return;
    this.forget(id, job);
    if (!job.completing) await this.worker.request({ op: 'abort', job: job.key });
    await job.release().catch(() => undefined);
  }

  async close(): Promise<void> {
    for (const id of [...this.passive.keys()]) this.passiveForget(id);
    await Promise.all([...new Set([...this.jobs.keys(), ...this.held.keys()])].map((id) => this.abort(id).catch(() => undefined)));
    await this.worker.close();
  }

  private follow(id: string, release: () => Promise<void>, onDisk: Iterable<number>, totalNum: number): void {
    const job: Job = { key: this.worker.nextKey(), totalNum, present: new Set(onDisk), next: 1, unsent: 0, release };
    this.jobs.set(id, job);
    this.worker.post({ op: 'open', job: job.key, data: this.store.dataPath(id), md5Limit: this.md5Limit, chunkBytes: UPLOAD_CHUNK_BYTES });
    this.progress(id, job);
    this.send(job);
  }

  /** Hands over what continues the file; then either every chunk is there (digest) or it looks again later. */
  private progress(id: string, job: Job): void {
    if (job.completing) return;
    while (job.next < job.totalNum && job.present.has(job.next)) {
      job.next++;
      job.unsent++;
    }
    if (job.unsent >= HANDOVER_BATCH) this.send(job);
    this.keepAlive(id, job);
    // `present` holds numbers within 1..totalNum only (validated fields, markers filtered): full means complete.
    if (job.present.size >= job.totalNum) {
      // The last chunk's marker holds its length, which fixes the file's size.
      void this.store.fileSize(id, job.totalNum).then(
        (size) => this.complete(id, job, size),
        () => undefined, // the parts are gone (finished or discarded): nothing to do
      ).catch(() => undefined);
      return;
    }
    this.schedulePoll(id, job);
  }

  private schedulePoll(id: string, job: Job): void {
    if (job.poll || job.completing) return;
    // A gap below chunks this process knows of is most likely filled already by another process.
    const gap = job.present.size > job.next - 1;
    job.poll = setTimeout(() => {
      job.poll = undefined;
      if (this.jobs.get(id) !== job) return;
      this.markersFrom(id, job).then((nums) => {
        if (this.jobs.get(id) !== job || job.completing) return;
        for (const num of nums) job.present.add(num);
        this.progress(id, job);
      }, () => undefined);
    }, gap ? POLL_MS : IDLE_POLL_MS);
    job.poll.unref();
  }

  /**
   * The chunks present on disk from the next one the job needs, up to the first missing: one `access` per marker,
   * cheaper than listing the directory every few milliseconds while another process writes the next chunk.
   */
  private async markersFrom(id: string, job: Job): Promise<number[]> {
    const found: number[] = [];
    for (let num = job.next; num <= job.totalNum; num++) {
      if (!job.present.has(num) && !(await this.store.exists(this.store.markerPath(id, num)))) break;
      found.push(num);
    }
    return found;
  }

  /** Takes in the rest of the file at `size` bytes and leaves its digest on disk; once per job, which then ends. */
  private complete(id: string, job: Job, size: number): Promise<Digest> {
    job.completing ??= (async () => {
      this.forget(id, job);
      this.held.set(id, job.release);
      // Kept while the upload may still be finished or resumed; then given up like an idle job's.
      setTimeout(() => {
        if (this.held.get(id) !== job.release) return;
        this.held.delete(id);
        void job.release().catch(() => undefined);
      }, this.idleMs).unref();
      this.send(job);
      const reply = await this.worker.request({ op: 'finish', job: job.key, size });
      const digest: Digest = reply.ok ? { size, md5: reply.md5! } : { size, code: reply.code, message: reply.message };
      await fs.writeFile(path.join(this.store.partsDir(id), DIGEST_FILE), JSON.stringify(digest)).catch(() => undefined);
      return digest;
    })();
    return job.completing;
  }

  private async readDigest(id: string): Promise<Digest | undefined> {
    try {
      return JSON.parse(await fs.readFile(path.join(this.store.partsDir(id), DIGEST_FILE), 'utf8')) as Digest;
    } catch {
      return undefined; // none yet, or being written
    }
  }

  private send(job: Job): void {
    if (job.unsent === 0) return;
    this.worker.post({ op: 'add', job: job.key, count: job.unsent });
    job.unsent = 0;
  }

  /** An upload left alone for a while gives back its descriptor, memory and claim; resuming rebuilds them. */
  private keepAlive(id: string, job: Job): void {
    clearTimeout(job.timer);
    job.timer = setTimeout(() => void this.abort(id).catch(() => undefined), this.idleMs);
    job.timer.unref();
  }

  private keepPassive(id: string): void {
    clearTimeout(this.passive.get(id));
    const timer = setTimeout(() => this.passive.delete(id), this.idleMs);
    timer.unref();
    this.passive.set(id, timer);
  }

  private passiveForget(id: string): void {
    clearTimeout(this.passive.get(id));
    this.passive.delete(id);
  }

  private forget(id: string, job: Job): void {
    clearTimeout(job.timer);
    clearTimeout(job.poll);
    job.poll = undefined;
    if (this.jobs.get(id) === job) this.jobs.delete(id);
  }
}
