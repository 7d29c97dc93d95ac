import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FinishClaims } from './finish-claim.js';
import { UploadStore } from './upload-store.js';

let dir: string;
let store: UploadStore;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-store-'));
  store = new UploadStore(dir);
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

async function tempWith(text: string): Promise<string> {
  const temp = await store.createTemp();
  await temp.handle.writeFile(text);
  await temp.handle.close();
  return temp.path;
}

describe('UploadStore', () => {
  it('writes chunks at their offsets, lists the marked ones, and makes its directory again if it was cleaned away', async () => {
    const never = async () => false;
    expect(await store.presentChunks('u1', 3)).toEqual([]);
    expect(await store.writeChunk('u1', 2, 4, Buffer.from('bbbb'), never)).toBe('written');
    await fs.rm(path.join(dir, 'uploads'), { recursive: true });
    expect(await store.writeChunk('u1', 3, 4, Buffer.from('cc'), never)).toBe('written');
    expect(await store.presentChunks('u1', 3)).toEqual([]);
    expect(await store.markChunk('u1', 3, '2', never)).toBe('written');
    await fs.writeFile(path.join(store.partsDir('u1'), '9'), '');
    expect(await store.presentChunks('u1', 3)).toEqual([3]);
    expect(await fs.readFile(store.dataPath('u1'))).toEqual(Buffer.from('\0\0\0\0\0\0\0\0cc'));
  });

  it('trims the data file to the length the last chunk recorded', async () => {
    const never = async () => false;
    await store.writeChunk('u4', 2, 4, Buffer.from('long'), never);
    await store.markChunk('u4', 2, '1', never);
    await store.writeChunk('u4', 2, 4, Buffer.from('s'), never);
    await store.trimData('u4', 2, 4);
    expect((await fs.stat(store.dataPath('u4'))).size).toBe(5);
  });

  it('does not bring back the parts dir of an upload that was finished meanwhile', async () => {
    expect(await store.writeChunk('u2', 1, 4, Buffer.from('late'), async () => true)).toBe('complete');
    expect(await store.markChunk('u2', 1, '', async () => true)).toBe('complete');
    await expect(fs.access(store.partsDir('u2'))).rejects.toMatchObject({ code: 'ENOENT' });
  });

  it('publishes a file under its final name and answers paths relative to the data dir', async () => {
    const target = store.completePath('u3', 'a.kfb');
    await store.publish(await tempWith('whole'), target);
    expect(await fs.readFile(target, 'utf8')).toBe('whole');
    expect(store.relative(target)).toBe('uploads/complete/u3/a.kfb');
  });

  it('removes a parts dir at once: while it is being deleted no process finds it, so none can claim its finish', async () => {
    const never = async () => false;
    const seen: { partsDir: boolean; claim: string }[] = [];
    class Watched extends UploadStore {
      protected override async removeTree(doomed: string): Promise<void> {
        seen.push({
          partsDir: await fs.access(this.partsDir('u5')).then(() => true, () => false),
          claim: (await new FinishClaims((id) => this.partsDir(id)).claim('u5')).kind,
        });
        await super.removeTree(doomed);
      }
    }
    const watched = new Watched(dir);
    await watched.writeChunk('u5', 1, 4, Buffer.from('data'), never);
    await watched.markChunk('u5', 1, '4', never);
    await watched.removeParts('u5');
    expect(seen).toEqual([{ partsDir: false, claim: 'gone' }]);
    await expect(fs.access(watched.partsDir('u5'))).rejects.toMatchObject({ code: 'ENOENT' });
    expect(await fs.readdir(path.join(dir, 'uploads', 'tmp'))).toEqual([]);
    await watched.removeParts('u5'); // gone already: nothing to do
  });

  it('never shows the last chunk\'s marker without its length: a process that lists it reads the size it holds', async () => {
    // fs.writeFile creates the file, then writes: a finisher in another process that listed the marker in between
    // read '' as length 0, cut the last chunk off the file and discarded a good upload as an MD5 mismatch.
    const never = async () => false;
    const sizes = new Set<number>();
    for (let round = 0; round < 300; round++) {
      const id = `race-${round}`;
      const marking = store.markChunk(id, 2, '3', never);
      let marked = false;
      void marking.then(() => { marked = true; });
      // Several readers at once, as the libuv pool has threads: one of them lands between the create and the write.
      await Promise.all([0, 1, 2].map(async () => {
        while (!marked) sizes.add(await store.fileSize(id, 2, 4).catch(() => -1)); // -1: not there yet
      }));
      sizes.add(await store.fileSize(id, 2, 4));
    }
    sizes.delete(-1);
    expect([...sizes]).toEqual([7]);
    expect((await fs.readdir(store.partsDir('race-0'))).sort()).toEqual(['2']);
  });

  it('sweeps only staging files older than the given age', async () => {
    const old = await tempWith('old');
    const young = await tempWith('young');
    const dayAgo = new Date(Date.now() - 25 * 3600 * 1000);
    await fs.utimes(old, dayAgo, dayAgo);
    // A parts dir renamed here by a process that stopped before deleting it.
    const left = path.join(dir, 'uploads', 'tmp', 'parts-left');
    await fs.mkdir(left);
    await fs.writeFile(path.join(left, 'data'), 'x');
    await fs.utimes(left, dayAgo, dayAgo);
    expect(await store.sweepTemp(24 * 3600 * 1000)).toBe(2);
    await expect(fs.access(old)).rejects.toThrow();
    await expect(fs.access(left)).rejects.toThrow();
    await fs.access(young);
  });
});
