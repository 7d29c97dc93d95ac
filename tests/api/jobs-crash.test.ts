import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { login, multipartChunk, request, restartableServer } from './server-process.js';
import { realSlide, realSlides } from '../support/real-slides.js';

/**
 * kill -9 during a conversion: the real server (server/main.ts, one process, SQLite in a temp DATA_DIR) converts
 * the JPEG 2000 SVS of ../shared/data/real; it is killed mid-conversion and started again. The job's lease lapses
 * (JOB_LEASE_SECONDS=2), the new process claims it again, converts from scratch and finishes; the slide becomes
 * viewable. A client asking for a tile all along never gets anything but a refusal or the final tile's bytes.
 */
const SOURCE = realSlide('tcga-cr-7395-01a-01-ts1.svs');
const present = realSlides('tcga-cr-7395-01a-01-ts1.svs');
const md5 = (b: Uint8Array | string) => createHash('md5').update(b).digest('hex');

if (!present) {
  describe('kill -9 during a conversion', () => {
    it.skip(`skipped: ${SOURCE} is absent (the real slide files are not committed)`, () => {});
  });
}

describe.runIf(present)('kill -9 during a conversion', () => {
  const { dataDir, base, start, kill9 } = restartableServer('dsms-crash-');

  it('resumes the conversion after a restart, and never serves half a file', async () => {
    await start();
    const token = await login(base(), 'technician', DEMO_PASSWORDS.others);
    const auth = { authorization: `Bearer ${token}` };

    const data = fs.readFileSync(SOURCE);
    const totalNum = Math.ceil(data.length / CHUNK);
    let done: { code: number; path?: string } = { code: 0 };
    for (let num = 1; num <= totalNum; num++) {
      const bytes = data.subarray((num - 1) * CHUNK, num * CHUNK);
      const body = multipartChunk({ file_name: 'tcga.svs', num, total_num: totalNum, md5: md5(bytes), total_md5: md5(data) }, bytes);
      done = (await request(base(), 'POST', '/api/upload/large', { ...auth, 'content-type': body.type }, body.payload)).json().data;
    }
    expect(done.code).toBe(1);
    const bound = await request(base(), 'POST', '/api/data/kfb/bind', { ...auth, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ path: done.path })));
    expect(bound.status, bound.body.toString()).toBe(200);
    // Answered at once, 'ingesting'; its ingest job finds the JPEG 2000 tiles and queues the conversion.
    expect(bound.json().data.status).toBe('ingesting');
    let slide = bound.json().data;
    for (const until = Date.now() + 60_000; slide.status === 'ingesting' && Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      slide = (await request(base(), 'GET', `/api/data/kfb/item/${slide.id}`, auth)).json().data;
    }
    expect(slide.status).toBe('converting');

    // A viewer asking for one tile throughout, across the crash and the restart.
    const tileUrl = `/api/tiles/${slide.id}_files/10/2_1.jpeg`;
    const seen: { status: number; body: Buffer }[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        const res = await request(base(), 'GET', tileUrl, auth).catch(() => null);
        if (res) seen.push({ status: res.status, body: res.body });
        await new Promise((r) => setTimeout(r, 30));
      }
    })();

    const job = async () => (await request(base(), 'GET', `/api/jobs/slide/${slide.id}?type=slides.convert`, auth)).json().data;
    let state = await job();
    const end = Date.now() + 60_000;
    while (!(state?.status === 'running' && state.progress >= 1)) {
      if (state?.status === 'done') throw new Error('the conversion finished before it could be killed');
      if (Date.now() > end) throw new Error(`the conversion did not start: ${JSON.stringify(state)}`);
      await new Promise((r) => setTimeout(r, 20));
      state = await job();
    }
    await kill9();
    const folder = path.dirname(path.join(dataDir, slide.file_path));
    // Killed mid-way: the pyramid exists only under its partial name, never under the name that is served.
    expect(fs.existsSync(`${path.join(dataDir, slide.file_path)}.tiff`)).toBe(false);
    expect(fs.readdirSync(folder).some((f) => f.endsWith('.partial'))).toBe(true);

    await start();
    let after = await job();
    const until = Date.now() + 180_000;
    while (after.status !== 'done') {
      if (after.status === 'failed' || Date.now() > until) throw new Error(`job did not finish: ${JSON.stringify(after)}`);
      await new Promise((r) => setTimeout(r, 100));
      after = await job();
    }
    expect(after).toMatchObject({ status: 'done', progress: 100, attempts: 2 });
    const ready = (await request(base(), 'GET', `/api/data/kfb/item/${slide.id}`, auth)).json().data;
    expect(ready).toMatchObject({ status: 'ready', format_note: 'jp2k_reencoded' });
    expect(ready.file_path).toBe(`${slide.file_path}.tiff`);

    let final = await request(base(), 'GET', tileUrl, auth);
    for (let i = 0; i < 80 && final.status !== 200; i++) {
      await new Promise((r) => setTimeout(r, 100));
      final = await request(base(), 'GET', tileUrl, auth);
    }
    expect(final.status, final.body.toString()).toBe(200);
    await sharp(final.body).stats();
    for (let i = 0; i < 100 && !seen.some((x) => x.status === 200); i++) await new Promise((r) => setTimeout(r, 50));
    watching = false;
    await watcher;
    const served = seen.filter((s) => s.status === 200);
    // Before the conversion the tile is refused (409: still being processed; 503 while the server restarts);
    // after it, the bytes are the final tile's.
    expect(seen.filter((s) => s.status !== 200).every((s) => s.status === 409 || s.status === 404 || s.status === 503)).toBe(true);
    expect(seen.some((s) => s.status === 409)).toBe(true);
    expect(served.length).toBeGreaterThan(0);
    expect(served.every((s) => s.body.equals(final.body))).toBe(true);
    expect(fs.readdirSync(folder).filter((f) => f.endsWith('.partial'))).toEqual([]);
  }, 300_000);
});
