import fs from 'node:fs';
import path from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { login, request, restartableServer } from './server-process.js';

/**
 * kill -9 during an ingest: the real server (server/main.ts, one process, SQLite in a temp DATA_DIR) reads a slide
 * an operator put under slides/ and an administrator bound. The file is a demo pyramid followed by 1.5 GiB of
 * (sparse) padding, so hashing its first GiB keeps the ingest job running long enough to be killed mid-way. After
 * the restart the lapsed lease (JOB_LEASE_SECONDS=2) hands the job to the new process, which reads the file again
 * and makes the slide ready. A viewer asking for a tile and the thumbnail all along gets a refusal or the final bytes.
 */
const PADDED_BYTES = 1.5 * 2 ** 30;
const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('kill -9 during a slide ingest', () => {
  const { dataDir, base, start, kill9 } = restartableServer('dsms-crash-ingest-');

  it('reads the slide again after a restart, and never serves a tile or thumbnail before it is ready', async () => {
    const file = path.join(dataDir, 'slides', 'operator', 'padded.tiff');
    fs.mkdirSync(path.dirname(file), { recursive: true });
    await generateDemoSlide({ out: file, width: 3000, height: 2000, seed: 11 });
    // TIFF offsets are absolute: bytes after the last one are never read as the slide, only hashed.
    fs.truncateSync(file, PADDED_BYTES);

    await start();
    const token = await login(base(), 'admin', DEMO_PASSWORDS.admin);
    const auth = { authorization: `Bearer ${token}` };
    const bound = await request(base(), 'POST', '/api/data/kfb/bind', { ...auth, 'content-type': 'application/json' },
      Buffer.from(JSON.stringify({ path: 'slides/operator/padded.tiff' })));
    expect(bound.status, bound.body.toString()).toBe(200);
    const slide = bound.json().data as { id: number; status: string; file_path: string };
    expect(slide.status).toBe('ingesting');

    // A viewer asking for a full-resolution tile and the thumbnail throughout, across the crash and the restart.
    const tileUrl = `/api/tiles/${slide.id}_files/12/1_1.jpeg`;
    const thumbUrl = `/api/data/kfb/thumb/${slide.id}`;
    const seen: { url: string; status: number; body: Buffer }[] = [];
    let watching = true;
    const watcher = (async () => {
      while (watching) {
        for (const url of [tileUrl, thumbUrl]) {
          const res = await request(base(), 'GET', url, auth).catch(() => null);
          if (res) seen.push({ url, status: res.status, body: res.body });
        }
        await delay(30);
      }
    })();

    const job = async () => (await request(base(), 'GET', `/api/jobs/slide/${slide.id}?type=slides.ingest`, auth)).json().data;
    let state = await job();
    const end = Date.now() + 60_000;
    while (!(state?.status === 'running' && state.progress >= 1)) {
      if (state?.status === 'done') throw new Error('the ingest finished before it could be killed');
      if (Date.now() > end) throw new Error(`the ingest did not start: ${JSON.stringify(state)}`);
      await delay(20);
      state = await job();
    }
    await kill9();

    await start();
    let after = await job();
    const until = Date.now() + 180_000;
    while (after.status !== 'done') {
      if (after.status === 'failed' || Date.now() > until) throw new Error(`job did not finish: ${JSON.stringify(after)}`);
      await delay(100);
      after = await job();
    }
    // Two attempts: the killed one and the one that finished.
    expect(after).toMatchObject({ status: 'done', progress: 100, attempts: 2 });
    const ready = (await request(base(), 'GET', `/api/data/kfb/item/${slide.id}`, auth)).json().data;
    expect(ready).toMatchObject({ status: 'ready', width: 3000, height: 2000, file_path: slide.file_path, file_size: PADDED_BYTES });
    expect(ready.md5).toMatch(/^[0-9a-f]{32}$/);

    const finalTile = await request(base(), 'GET', tileUrl, auth);
    expect(finalTile.status, finalTile.body.toString()).toBe(200);
    expect((await sharp(finalTile.body).metadata()).format).toBe('jpeg');
    const finalThumb = await request(base(), 'GET', thumbUrl, auth);
    expect(finalThumb.status, finalThumb.body.toString()).toBe(200);
    for (let i = 0; i < 100 && !seen.some((x) => x.url === thumbUrl && x.status === 200); i++) await delay(50);
    watching = false;
    await watcher;

    // Until the slide was ready both were refused as being processed (409); once ready, only the final bytes.
    for (const [url, final] of [[tileUrl, finalTile.body], [thumbUrl, finalThumb.body]] as const) {
      const answers = seen.filter((s) => s.url === url);
      expect(answers.filter((s) => s.status !== 200).map((s) => s.status).every((s) => s === 409 || s === 503), url).toBe(true);
      expect(answers.some((s) => s.status === 409), url).toBe(true);
      expect(answers.filter((s) => s.status === 200).every((s) => s.body.equals(final)), url).toBe(true);
    }
  }, 300_000);
});
