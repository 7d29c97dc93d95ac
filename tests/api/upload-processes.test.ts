import { spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { databases } from './harness.js';
import { filesUnder, idOf, md5, sendChunk, testFile, uploadSuite } from './upload-helpers.js';

/** Chunked upload with several server processes (WORKERS, API nodes) sharing one data dir. */
describe.each(databases)('upload across processes [%s]', (kind) => {
  const suite = uploadSuite(kind);
  const { appOn, tempDir } = suite;
  let technician: string;
  beforeAll(() => {
    ({ technician } = suite);
  });

  // Two apps on one data dir stand for two processes (cluster workers, API nodes): each has its own lock,
  // assembler and caches, and shares only the disk, as processes do.
  describe('chunks of one file on several processes', () => {
    async function twoApps() {
      const dataDir = await tempDir();
      return { a: await appOn(dataDir), b: await appOn(dataDir), dataDir };
    }

    it('answers lack from the disk, so a chunk kept by the other process is not asked for again', async () => {
      const { a, b } = await twoApps();
      const file = testFile('shared-lack.kfb', 20, 3 * CHUNK + 5);
      expect((await sendChunk(a, file, 1, { token: technician })).json().data).toEqual({ code: 0, msg: 0.25, lack: [2, 3, 4] });
      expect((await sendChunk(b, file, 3, { token: technician })).json().data).toEqual({ code: 0, msg: 0.5, lack: [2, 4] });
      expect((await sendChunk(a, file, 4, { token: technician })).json().data).toEqual({ code: 0, msg: 0.75, lack: [2] });
      // The process that never saw chunks 1, 3 and 4 finishes the file from the disk.
      const done = await sendChunk(b, file, 2, { token: technician });
      expect(done.json().data).toEqual({ code: 1, path: `uploads/complete/${idOf(file)}/shared-lack.kfb` });
    });

    it('assembles the original bytes once when chunks land on both at the same time, duplicates and both last ones included', async () => {
      const { a, b, dataDir } = await twoApps();
      const file = testFile('shared-burst.kfb', 21, 7 * CHUNK + 321);
      // Every chunk to one of them, chunks 3 and 8 to both, all at once.
      const sends = [1, 2, 3, 4, 5, 6, 7, 8].flatMap((n) => (n === 3 || n === 8 ? [a, b] : [n % 2 ? a : b]).map((app) => sendChunk(app, file, n, { token: technician })));
      const answers = (await Promise.all(sends)).map((r) => {
        expect(r.statusCode, r.body).toBe(200);
        return r.json().data as { code: number; path?: string };
      });
      const finished = answers.filter((x) => x.code === 1);
      expect(finished.length).toBeGreaterThanOrEqual(1);
      expect(new Set(finished.map((x) => x.path))).toEqual(new Set([`uploads/complete/${idOf(file)}/shared-burst.kfb`]));
      expect((await fs.readFile(path.join(dataDir, finished[0]!.path!))).equals(file.data)).toBe(true);
      expect(await filesUnder(path.join(dataDir, 'uploads'))).toEqual([`complete/${idOf(file)}/shared-burst.kfb`]);
      // Both answer a retry the same, whichever of them finished.
      for (const app of [a, b]) expect((await sendChunk(app, file, 8, { token: technician })).json().data).toEqual(finished[0]);
    });

    it('waits for the other process finishing the file and answers its outcome', async () => {
      const { a, b, dataDir } = await twoApps();
      const file = testFile('shared-last.kfb', 22, 4 * CHUNK + 9);
      for (const num of [1, 2, 3, 4]) await sendChunk(num % 2 ? a : b, file, num, { token: technician });
      // The same last chunk reaches both at once: one finishes, the other sees its claim and waits.
      const [fromA, fromB] = await Promise.all([a, b].map((app) => sendChunk(app, file, 5, { token: technician })));
      const expected = { code: 1, path: `uploads/complete/${idOf(file)}/shared-last.kfb` };
      expect([fromA.statusCode, fromB.statusCode]).toEqual([200, 200]);
      expect([fromA.json().data, fromB.json().data]).toEqual([expected, expected]);
      expect(md5(await fs.readFile(path.join(dataDir, expected.path)))).toBe(file.totalMd5);
    });

    it('takes over the claim of a process that died while finishing', async () => {
      const { a, dataDir } = await twoApps();
      const file = testFile('shared-dead.kfb', 23, CHUNK + 1);
      await sendChunk(a, file, 1, { token: technician });
      const dead = spawnSync(process.execPath, ['-e', 'process.exit(0)']).pid!;
      const claim = path.join(dataDir, 'uploads', 'parts', idOf(file), 'finishing');
      await fs.writeFile(claim, JSON.stringify({ host: os.hostname(), pid: dead, nonce: 'gone', at: Date.now() }));
      const done = await sendChunk(a, file, 2, { token: technician });
      expect(done.json().data).toEqual({ code: 1, path: `uploads/complete/${idOf(file)}/shared-dead.kfb` });
      expect((await fs.readFile(path.join(dataDir, done.json().data.path))).equals(file.data)).toBe(true);
    });
  });
});
