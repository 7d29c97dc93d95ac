/**
 * Tile latency while slides convert (not a test): does a conversion starve tile serving?
 *
 *   node --import tsx scripts/bench/tiles-during-conversion.ts [--seconds 8] [--concurrency 4] [--copies 4] [--workers 2]
 *     [--source /work/shared/data/real/tcga-cr-7395-01a-01-ts1.svs]
 *
 * Starts the real server (server/main.ts, demo data, a temp DATA_DIR, a 1 MB tile cache so tiles are read, not
 * remembered), then asks for Deep Zoom tiles of a demo slide, `concurrency` at a time, for `seconds`: first with
 * nothing else running (the baseline), then while `copies` uploads of `source` (a JPEG 2000 SVS: OpenSlide
 * decodes every tile) convert one after another in the job runner. Prints p50/p99/max of both phases and the
 * ratio. Every process started here is stopped.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { freePort, login, multipartChunk, request, startServer } from '../../tests/api/server-process.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    concurrency: { type: 'string', default: '4' },
    copies: { type: 'string', default: '4' },
    workers: { type: 'string', default: '2' },
    source: { type: 'string', default: '/work/shared/data/real/tcga-cr-7395-01a-01-ts1.svs' },
  },
});
const seconds = Number(values.seconds);
const concurrency = Number(values.concurrency);
const md5 = (b: Uint8Array) => createHash('md5').update(b).digest('hex');

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-bench-conv-'));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const server = await startServer({ PORT: String(port), DATA_DIR: dataDir, WORKERS: values.workers!, TILE_CACHE_MB: '1', LOG_LEVEL: 'info' }, 'worker processes');
try {
  const token = await login(base, 'admin', DEMO_PASSWORDS.admin);
  const auth = { authorization: `Bearer ${token}` };
  const list = (await request(base, 'GET', '/api/data/kfb/lists?page=1&page_size=50', auth)).json().data.data as { id: number; status: string; width: number; height: number }[];
  const slide = list.filter((s) => s.status === 'ready' && s.width).sort((a, b) => b.width * b.height - a.width * a.height)[0];
  const dzi = (await request(base, 'GET', `/api/tiles/${slide.id}.dzi`, auth)).body.toString();
  const tile = Number(dzi.match(/TileSize="(\d+)"/)![1]);
  const top = Math.ceil(Math.log2(Math.max(slide.width, slide.height)));
  const urls: string[] = [];
  for (let level = top; level > top - 4; level--) {
    const f = 2 ** (top - level);
    for (let r = 0; r < Math.ceil(slide.height / f / tile); r++) for (let c = 0; c < Math.ceil(slide.width / f / tile); c++) urls.push(`/api/tiles/${slide.id}_files/${level}/${c}_${r}.jpeg`);
  }

  const measure = async () => {
    const times: number[] = [];
    let next = 0;
    const end = Date.now() + seconds * 1000;
    await Promise.all(Array.from({ length: concurrency }, async () => {
      while (Date.now() < end) {
        const url = urls[next++ % urls.length];
        const t0 = performance.now();
        const res = await request(base, 'GET', url, auth);
        if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
        times.push(performance.now() - t0);
      }
    }));
    times.sort((a, b) => a - b);
    const at = (q: number) => times[Math.min(times.length - 1, Math.floor(q * times.length))];
    return { n: times.length, p50: at(0.5), p99: at(0.99), max: times[times.length - 1] };
  };

  const baseline = await measure();

  const data = fs.readFileSync(values.source!);
  const ids: number[] = [];
  for (let copy = 0; copy < Number(values.copies); copy++) {
    // A byte appended makes each copy an upload of its own (OpenSlide ignores what follows the last directory).
    const bytes = Buffer.concat([data, Buffer.from([copy])]);
    const totalNum = Math.ceil(bytes.length / CHUNK);
    let done: { code: number; path?: string } = { code: 0 };
    for (let num = 1; num <= totalNum; num++) {
      const chunk = bytes.subarray((num - 1) * CHUNK, num * CHUNK);
      const body = multipartChunk({ file_name: `bench-${copy}.svs`, num, total_num: totalNum, md5: md5(chunk), total_md5: md5(bytes) }, chunk);
      done = (await request(base, 'POST', '/api/upload/large', { ...auth, 'content-type': body.type }, body.payload)).json().data;
    }
    const bound = await request(base, 'POST', '/api/data/kfb/bind', { ...auth, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ path: done.path })));
    ids.push(bound.json().data.id);
  }
  const job = async (id: number) => (await request(base, 'GET', `/api/jobs/slide/${id}`, auth)).json().data;
  while ((await job(ids[0])).status !== 'running') await new Promise((r) => setTimeout(r, 50));
  const during = await measure();
  const states = await Promise.all(ids.map(job));
  const converting = states.filter((s) => s.status === 'running' || s.status === 'queued').length;

  const row = (name: string, m: typeof baseline) => `| ${name} | ${m.n} | ${m.p50.toFixed(1)} | ${m.p99.toFixed(1)} | ${m.max.toFixed(1)} |`;
  console.log(`slide ${slide.id} (${slide.width}×${slide.height}), ${urls.length} distinct tiles, ${concurrency} in flight, ${seconds} s per phase, WORKERS=${values.workers}, ${os.cpus().length} cores`);
  console.log('| phase | tiles | p50 ms | p99 ms | max ms |\n| --- | --- | --- | --- | --- |');
  console.log(row('idle', baseline));
  console.log(row(`converting (${converting} of ${ids.length} jobs still queued/running at the end)`, during));
  console.log(`p99 during conversion / idle: ${(during.p99 / baseline.p99).toFixed(2)}×`);
} finally {
  const exited = new Promise((r) => server.child.once('exit', r));
  server.child.kill('SIGTERM');
  await exited;
  fs.rmSync(dataDir, { recursive: true, force: true });
}
