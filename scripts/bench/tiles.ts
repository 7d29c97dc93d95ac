/**
 * Tile benchmark (not a test): our tile server against iipsrv, the OpenSlide Deep Zoom server and nginx
 * serving a static dzsave copy (the ceiling), on one synthetic 50,000 × 50,000 slide, all on 127.0.0.1.
 *
 *   node --import tsx scripts/bench/tiles.ts [--dir /tmp/dsms-bench] [--size 50000] [--count 20000]
 *     [--concurrency 1,16,64] [--runs 3] [--seconds 10] [--dsms-workers 1,2] [--header-auth 16] [--only dsms,iipsrv,openslide,nginx]
 *
 * Every server replays the same fixed-seed list of tile requests with wrk (scripts/bench/tiles/replay.lua):
 * each pass replays the list in order (wrapping around) for --seconds. All servers are started side by side;
 * each gets one unmeasured warm-up pass at c=16, then the measured passes are interleaved across servers,
 * `runs` per concurrency; the median run by tiles/s is printed with its latencies. Our server checks the
 * session (the image cookie a browser sends) on every tile. Every process started here is stopped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import sharp from 'sharp';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { readSlideIndex } from '../../server/modules/tiles/tiff/levels.js';
import { dsmsServer, iipsrv, nginxStatic, openslideServer, peersAvailable, type BenchPaths, type Server } from './tiles/peers.js';
import type { Started } from './tiles/processes.js';
import { dziGrid, panningRequests, type TileAddress } from './tiles/requests.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp/dsms-bench' },
    size: { type: 'string', default: '50000' },
    count: { type: 'string', default: '20000' },
    concurrency: { type: 'string', default: '1,16,64' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    'dsms-workers': { type: 'string', default: '1,2' },
    /** Also measure the bearer-header path (the guard's session cache instead of the image cookie) at these concurrencies. */
    'header-auth': { type: 'string', default: '16' },
    only: { type: 'string', default: 'dsms,iipsrv,openslide,nginx' },
    seed: { type: 'string', default: '2024' },
  },
});
const dir = path.resolve(values.dir!);
const size = Number(values.size);
const count = Number(values.count);
const concurrencies = values.concurrency!.split(',').map(Number);
const runs = Number(values.runs);
const seconds = Number(values.seconds);
const only = new Set(values.only!.split(','));

interface Result { server: string; c: number; tilesPerSecond: number; p50: number; p95: number; p99: number; errors: number; requests: number }

const running: Started[] = [];
const stopAll = async () => { while (running.length) await running.pop()!.stop(); };
process.on('SIGINT', () => { void stopAll().then(() => process.exit(130)); });

async function main() {
  console.log(`load average (1/5/15 min) at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${os.cpus().length} cores`);
  const available = peersAvailable();
  if (!available.wrk) throw new Error('wrk is required (apt-get install wrk)');
  fs.mkdirSync(dir, { recursive: true });
  const paths: BenchPaths = { dir, slide: path.join(dir, `demo-${size}.tiff`), dz: path.join(dir, 'dz', `demo-${size}`) };

  await ensureSlide(paths.slide);
  const fh = await fs.promises.open(paths.slide);
  const index = await readSlideIndex(async (pos, len) => { const b = Buffer.alloc(len); const { bytesRead } = await fh.read(b, 0, len, pos); return b.subarray(0, bytesRead); });
  await fh.close();
  const grid = dziGrid(index.width, index.height, index.levels[0].tileWidth);
  const lowest = grid.maxLevel - (index.levels.length - 1);
  const list = panningRequests(grid, count, Number(values.seed), lowest);
  const perLevel = new Map<number, number>();
  for (const t of list) perLevel.set(t.level, (perLevel.get(t.level) ?? 0) + 1);
  const unique = new Set(list.map((t) => `${t.level}/${t.col}/${t.row}`)).size;
  console.log(`slide ${index.width}x${index.height}, ${index.levels.length} levels, tile ${index.levels[0].tileWidth}; ${list.length} requests, ${unique} distinct tiles; per level: `
    + [...perLevel].sort((a, b) => b[0] - a[0]).map(([l, n]) => `L${l}=${n}`).join(' '));

  const servers: Server[] = [];
  const workerCounts = values['dsms-workers']!.split(',').map(Number);
  if (only.has('dsms')) workerCounts.forEach((w, i) => servers.push(dsmsServer(paths, 18001 + i * 100, w, `demo-${size}`)));
  const headerConcurrencies = values['header-auth'] ? values['header-auth'].split(',').map(Number) : [];
  if (only.has('dsms') && headerConcurrencies.length) {
    servers.push(dsmsServer(paths, 18901, Math.max(...workerCounts), `demo-${size}`, 'header'));
  }
  if (only.has('iipsrv') && available.iipsrv && available.nginx) servers.push(iipsrv(paths, 18003, 2));
  if (only.has('openslide') && available.openslide) servers.push(openslideServer(paths, 18004, 4));
  if (only.has('nginx') && available.nginx) {
    await ensureDzsave(paths);
    servers.push(nginxStatic(paths, 18002));
  }
  for (const [peer, ok] of Object.entries(available)) if (!ok) console.log(`skipped: ${peer} is not installed`);

  // All servers run side by side and the measured passes are interleaved (run 1 of every server, then run 2 …),
  // so a burst of load from other processes on the machine falls on all of them alike instead of on one.
  const ready: { server: Server; listFile: string }[] = [];
  for (const server of servers) {
    try {
      await server.start((proc) => running.push(proc));
      await sanityCheck(server, list[0], paths.slide, grid.maxLevel);
      const listFile = path.join(dir, `paths-${server.port}.txt`);
      fs.writeFileSync(listFile, list.map((t) => server.path(t)).join('\n') + '\n');
      await wrk(server, listFile, 16); // warm-up: page cache, our tile cache, iipsrv's cache
      ready.push({ server, listFile });
    } catch (err) {
      // One peer failing (not installed right, port taken) must not hide the others' numbers.
      console.log(`${server.name} left out: ${(err as Error).message}`);
    }
  }
  const measured = new Map<string, Result[]>();
  for (let r = 0; r < runs; r++) {
    for (const c of concurrencies) {
      for (const { server, listFile } of ready) {
        if (server.authorization && !headerConcurrencies.includes(c)) continue;
        const result = await wrk(server, listFile, c);
        const key = `${server.name}\0${c}`;
        measured.set(key, [...(measured.get(key) ?? []), result]);
        console.log(`run ${r + 1} c=${c} ${server.name}: ${fmt(result.tilesPerSecond)} tiles/s, p99 ${result.p99.toFixed(2)} ms, errors ${result.errors}`);
      }
    }
  }
  await stopAll();
  const results = [...measured.values()].map((list) => [...list].sort((a, b) => a.tilesPerSecond - b.tilesPerSecond)[Math.floor(list.length / 2)]);
  printTable(results);
  console.log(`\nload average (1/5/15 min) at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${os.cpus().length} cores. `
    + 'Other processes on this machine compete with the servers and with wrk; compare rows of one run, not across runs.');
}

async function ensureSlide(file: string) {
  if (fs.existsSync(file)) { console.log(`reusing ${file}`); return; }
  // No label directory: iipsrv treats every directory as a pyramid level.
  const made = await generateDemoSlide({ out: file, width: size, height: size, tileSize: 256, mpp: 0.25, seed: 1, label: false });
  console.log(`generated ${file}: ${made.tiles} tiles, ${(made.bytes / 2 ** 20).toFixed(0)} MiB in ${(made.ms / 1000).toFixed(1)} s, `
    + `peak RSS ${Math.round(process.resourceUsage().maxRSS / 1024)} MiB`);
}

/** The static ceiling: libvips' dzsave (through sharp) of level 0, at the same JPEG quality as the slide. */
async function ensureDzsave(p: BenchPaths) {
  if (fs.existsSync(`${p.dz}.dzi`)) return;
  fs.mkdirSync(path.dirname(p.dz), { recursive: true });
  const started = Date.now();
  await sharp(p.slide, { page: 0, limitInputPixels: false }).jpeg({ quality: 80 })
    .tile({ size: 256, overlap: 0, layout: 'dz' }).toFile(`${p.dz}.dz`);
  console.log(`dzsave copy written in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

/** Before timing anything: the server answers the first tile of the list with the same pixels as libvips' own read. */
async function sanityCheck(server: Server, t: TileAddress, slide: string, maxLevel: number) {
  const headers: Record<string, string> = {
    ...(server.authorization ? { authorization: server.authorization() } : {}),
    ...(server.cookie ? { cookie: server.cookie() } : {}),
  };
  const res = await fetch(`http://127.0.0.1:${server.port}${server.path(t)}`, { headers });
  if (res.status !== 200) throw new Error(`${server.name}: tile ${t.level}/${t.col}_${t.row} answered ${res.status}`);
  const got = await sharp(Buffer.from(await res.arrayBuffer())).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  const level = sharp(slide, { page: maxLevel - t.level, limitInputPixels: false });
  const { width = 0, height = 0 } = await level.metadata();
  const region = { left: t.col * 256, top: t.row * 256, width: Math.min(256, width - t.col * 256), height: Math.min(256, height - t.row * 256) };
  const expected = await level.extract(region).raw().toBuffer();
  if (got.info.width !== region.width || got.info.height !== region.height) throw new Error(`${server.name}: tile is ${got.info.width}x${got.info.height}`);
  let diff = 0;
  for (let i = 0; i < expected.length; i++) diff += Math.abs(expected[i] - got.data[i]);
  const mad = diff / expected.length;
  if (mad > 10) throw new Error(`${server.name}: tile ${t.level}/${t.col}_${t.row} differs from the slide (mean abs diff ${mad.toFixed(1)})`);
  console.log(`${server.name}: tile ${t.level}/${t.col}_${t.row} matches the slide (mean abs diff ${mad.toFixed(2)})`);
}

async function wrk(server: Server, listFile: string, c: number): Promise<Result> {
  const threads = Math.min(2, c);
  const r = spawnSync('wrk', ['-t', String(threads), '-c', String(c), '-d', `${seconds}s`, '--timeout', '10s',
    '-s', path.resolve('scripts/bench/tiles/replay.lua'), `http://127.0.0.1:${server.port}`, '--', listFile, String(threads),
    server.authorization?.() ?? '', server.cookie?.() ?? ''],
  { encoding: 'utf8', timeout: (seconds + 30) * 1000 });
  const line = r.stdout.split('\n').find((l) => l.startsWith('WRKJSON '));
  if (!line) throw new Error(`wrk failed for ${server.name}: ${r.stderr || r.stdout}`);
  const j = JSON.parse(line.slice(8));
  return {
    server: server.name, c, requests: j.requests,
    tilesPerSecond: j.requests / (j.duration_us / 1e6),
    p50: j.p50_us / 1000, p95: j.p95_us / 1000, p99: j.p99_us / 1000,
    errors: j.status_errors + j.socket_errors,
  };
}

function printTable(results: Result[]) {
  const ours = (c: number) => Math.max(...results.filter((r) => r.c === c && r.server.startsWith('dsms') && !r.server.includes('header')).map((r) => r.tilesPerSecond), 0);
  const rows = results.map((r) => [r.server, String(r.c), fmt(r.tilesPerSecond), r.p50.toFixed(2), r.p95.toFixed(2), r.p99.toFixed(2),
    String(r.errors), r.server.startsWith('dsms') ? '' : `${(ours(r.c) / r.tilesPerSecond).toFixed(2)}x`]);
  const head = ['server', 'c', 'tiles/s', 'p50 ms', 'p95 ms', 'p99 ms', 'errors', 'best dsms / peer'];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => (i < 1 ? c.padEnd(widths[i]) : c.padStart(widths[i]))).join(' | ')} |`;
  console.log(`\n${line(head)}\n|${widths.map((w, i) => (i < 1 ? '-'.repeat(w + 2) : `${'-'.repeat(w + 1)}:`)).join('|')}|`);
  for (const c of concurrencies) for (const r of rows.filter((x) => x[1] === String(c))) console.log(line(r));
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

try {
  await main();
} finally {
  await stopAll();
}
