import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/** Who holds a claim: enough to tell, on the same machine, whether that process still runs. */
export interface ClaimOwner {
  host: string;
  pid: number;
  /** Distinguishes two claims of one process. */
  nonce: string;
  /** When it was claimed (ms since the epoch). */
  at: number;
}

/** A claim older than this is taken to be left by a process that died on another machine (one that shares the disk). */
export const CLAIM_STALE_MS = 10 * 60_000;

/**
 * Whether a claim can be taken over: its process is gone (same machine), or it is too old to be a live finish
 * (another machine, whose processes cannot be seen from here). A claim that cannot be read is being written now.
 */
export function isStaleClaim(owner: ClaimOwner | null, now: number, here: { host: string; alive(pid: number): boolean }): boolean {
  if (!owner) return false;
  if (owner.host === here.host) return !here.alive(owner.pid);
  return now - owner.at > CLAIM_STALE_MS;
}

export type ClaimResult = { kind: 'claimed'; release(): Promise<void> } | { kind: 'held'; owner: ClaimOwner | null } | { kind: 'gone' };

/**
 * The right to finish one upload (hash, verify, publish), across every process that shares the data dir:
 * a file `finishing` created with O_EXCL in the upload's parts dir. Exactly one process creates it; the others
 * see `held` and wait for the outcome. It goes when the parts dir goes (a finished or discarded upload) or when
 * its holder releases it after a failure it can recover from (a full disk), so that another try can claim it.
 */
export class FinishClaims {
  private readonly host = os.hostname();

  constructor(
    private readonly partsDir: (id: string) => string,
    /** The claim file's name in the parts dir: `finishing`, or `hashing` for the process that follows the file. */
    private readonly name = 'finishing',
  ) {}

  async claim(id: string): Promise<ClaimResult> {
    const file = this.file(id);
    const owner: ClaimOwner = { host: this.host, pid: process.pid, nonce: randomBytes(8).toString('hex'), at: Date.now() };
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        await fs.writeFile(file, JSON.stringify(owner), { flag: 'wx' });
        return { kind: 'claimed', release: () => this.release(id, owner.nonce) };
      } catch (err) {
        const code = (err as NodeJS.ErrnoException).code;
        if (code === 'ENOENT') return { kind: 'gone' };
        if (code !== 'EEXIST') throw err;
      }
      const held = await this.owner(id);
      if (!isStaleClaim(held, Date.now(), { host: this.host, alive })) return { kind: 'held', owner: held };
      // Its holder died: take it over once. Should two processes both decide so, both finish the same verified
      // bytes; the loser of the final rename sees an error and its client's retry finds the file done.
      await fs.rm(file, { force: true });
    }
    return { kind: 'held', owner: await this.owner(id) };
  }

  /** The current holder, or null when there is none (or it is still being written). */
  async owner(id: string): Promise<ClaimOwner | null> {
    try {
      return JSON.parse(await fs.readFile(this.file(id), 'utf8')) as ClaimOwner;
    } catch {
      return null;
    }
  }

  private async release(id: string, nonce: string): Promise<void> {
    if ((await this.owner(id))?.nonce === nonce) await fs.rm(this.file(id), { force: true });
  }

  private file(id: string): string {
    return path.join(this.partsDir(id), this.name);
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}
