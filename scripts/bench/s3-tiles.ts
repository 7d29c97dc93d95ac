/**
 * S3 tile benchmark (not a test): the same synthetic slide served by our server from local disk and from S3-compatible
 * storage (s3rver on loopback, in this process), with the block cache warm, at 16 connections; prints tiles/s and
 * latencies of each, their ratio, and the cold first tile (the slide's directories and its first tile by ranged GETs).
 *
 *   node --import tsx scripts/bench/s3-tiles.ts [--dir /tmp/dsms-bench-s3] [--size 20000] [--count 20000]
 *     [--connections 16] [--runs 3] [--seconds 10] [--cache-mb 1024] [--tile-cache-mb 16]
 *
 * As scripts/bench/tiles.ts: one fixed-seed list of panning requests (tiles/requests.ts) replayed in order by every
 * connection (a shared cursor), one unmeasured warm-up pass per server, then measured passes interleaved across the
 * two servers; the median run by tiles/s is printed. The load generator is autocannon (wrk is not required). Both
 * servers check the image cookie on every tile. Every process started here is stopped.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
// @ts-expect-error autocannon ships no types
import autocannon from 'autocannon';
import { IMAGE_COOKIE } from '../../server/http/image-cookie.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { readSlideIndex } from '../../server/modules/tiles/tiff/levels.js';
import { S3Storage } from '../../server/storage/s3-storage.js';
import { startLoopbackS3 } from '../../tests/support/s3-server.js';
import { start, type Started } from './tiles/processes.js';
import { dziGrid, panningRequests, type TileAddress } from './tiles/requests.js';

const { values } = parseArgs({
  options: {
    dir: { type: 'string', default: '/tmp/dsms-bench-s3' },
    size: { type: 'string', default: '20000' },
    count: { type: 'string', default: '20000' },
    connections: { type: 'string', default: '16' },
    runs: { type: 'string', default: '3' },
    seconds: { type: 'string', default: '10' },
    'cache-mb': { type: 'string', default: '1024' },
    /** Both servers' finished-tile cache: small, so that warm passes read the slide (disk, or the block cache) rather than that cache. */
    'tile-cache-mb': { type: 'string', default: '16' },
    seed: { type: 'string', default: '2024' },
  },
});
const dir = path.resolve(values.dir!);
const size = Number(values.size);
const connections = Number(values.connections);
const seconds = Number(values.seconds);

interface Target { name: string; port: number; token: string; slideId: string }
interface Result { name: string; tilesPerSecond: number; p50: number; p99: number; errors: number; requests: number }

const running: Started[] = [];
const stopAll = async () => { while (running.length) await running.pop()!.stop(); };
process.on('SIGINT', () => { void stopAll().then(() => process.exit(130)); });

async function main() {
  console.log(`load average (1/5/15 min) at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${os.cpus().length} cores`);
  fs.mkdirSync(dir, { recursive: true });
  const slide = path.join(dir, `demo-${size}.tiff`);
  if (!fs.existsSync(slide)) {
    const made = await generateDemoSlide({ out: slide, width: size, height: size, tileSize: 256, mpp: 0.25, seed: 1, label: false });
    console.log(`generated ${slide}: ${made.tiles} tiles, ${(made.bytes / 2 ** 20).toFixed(0)} MiB`);
  }
  const fh = await fs.promises.open(slide);
  const index = await readSlideIndex(async (pos, len) => { const b = Buffer.alloc(len); const { bytesRead } = await fh.read(b, 0, len, pos); return b.subarray(0, bytesRead); });
  await fh.close();
  const grid = dziGrid(index.width, index.height, index.levels[0]!.tileWidth);
  const list = panningRequests(grid, Number(values.count), Number(values.seed), grid.maxLevel - (index.levels.length - 1));
  console.log(`tile cache ${values['tile-cache-mb']} MiB per server, S3 block cache ${values['cache-mb']} MiB`);
  console.log(`slide ${index.width}x${index.height}, ${index.levels.length} levels; ${list.length} requests, ${new Set(list.map((t) => `${t.level}/${t.col}/${t.row}`)).size} distinct tiles`);

  const s3 = await startLoopbackS3('dsms-bench', 'bench');
  try {
    const key = `slides/demo-${size}.tiff`;
    const storage = new S3Storage(s3.settings);
    const put = Date.now();
    await storage.write(key, fs.createReadStream(slide));
    storage.close();
    console.log(`put ${key} into s3rver in ${((Date.now() - put) / 1000).toFixed(1)} s`);

    const localData = path.join(dir, 'local-data');
    fs.mkdirSync(path.join(localData, 'slides'), { recursive: true });
    const link = path.join(localData, 'slides', path.basename(slide));
    if (!fs.existsSync(link)) fs.symlinkSync(slide, link);
    const local = await server('local disk', 18501, localData, [], {});
    const remote = await server('S3 (s3rver), block cache', 18502, path.join(dir, 's3-data'), ['--key', key], { ...s3.env, S3_CACHE_MB: values['cache-mb']! });

    // Cold: nothing of the slide read yet by either server; the first tile opens the slide (directories, tile offsets).
    const cold = { local: await firstTile(local, list[0]!), remote: await firstTile(remote, list[0]!) };
    console.log(`cold first tile: local ${cold.local.toFixed(1)} ms, S3 ${cold.remote.toFixed(1)} ms`);

    for (const t of [local, remote]) await replay(t, list); // warm-up: page cache, tile cache, block cache
    const measured = new Map<string, Result[]>();
    for (let r = 0; r < Number(values.runs); r++) {
      for (const t of [local, remote]) {
        const result = await replay(t, list);
        measured.set(t.name, [...(measured.get(t.name) ?? []), result]);
        console.log(`run ${r + 1} c=${connections} ${t.name}: ${fmt(result.tilesPerSecond)} tiles/s, p99 ${result.p99.toFixed(2)} ms, errors ${result.errors}`);
      }
    }
    const median = (name: string) => { const l = [...measured.get(name)!].sort((a, b) => a.tilesPerSecond - b.tilesPerSecond); return l[Math.floor(l.length / 2)]!; };
    const [a, b] = [median(local.name), median(remote.name)];
    console.log(`\n| storage | c | tiles/s | p50 ms | p99 ms | errors | cold first tile ms |\n|---|--:|--:|--:|--:|--:|--:|`);
    console.log(`| ${a.name} | ${connections} | ${fmt(a.tilesPerSecond)} | ${a.p50.toFixed(2)} | ${a.p99.toFixed(2)} | ${a.errors} | ${cold.local.toFixed(1)} |`);
    console.log(`| ${b.name} | ${connections} | ${fmt(b.tilesPerSecond)} | ${b.p50.toFixed(2)} | ${b.p99.toFixed(2)} | ${b.errors} | ${cold.remote.toFixed(1)} |`);
    console.log(`\nS3 warm / local: ${(b.tilesPerSecond / a.tilesPerSecond).toFixed(2)}x (issue 29 asks ≥ 0.5x)`);
  } finally {
    await stopAll();
    await s3.close();
  }
  console.log(`load average (1/5/15 min) at the end: ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}`);
}

/** Our server as the tile bench starts it (tiles/dsms-server.ts), one process, with this storage in its environment. */
async function server(name: string, port: number, dataDir: string, args: string[], env: Record<string, string>): Promise<Target> {
  fs.rmSync(path.join(dataDir, 'dsms.sqlite'), { force: true });
  fs.mkdirSync(path.join(dataDir, 'slides'), { recursive: true });
  const log = path.join(dir, `dsms-${port}.log`);
  fs.writeFileSync(log, '');
  const proc = start(name, process.execPath, ['--import', 'tsx', path.resolve('scripts/bench/tiles/dsms-server.ts'), '--data', dataDir, '--port', String(port), ...args],
    { log, env: { NODE_ENV: 'production', TILE_CACHE_MB: values['tile-cache-mb']!, ...env } });
  running.push(proc);
  const until = Date.now() + 120_000;
  while (Date.now() < until) {
    const m = fs.readFileSync(log, 'utf8').match(/READY (\S+) (\d+)/);
    if (m) return { name, port, token: m[1]!, slideId: m[2]! };
    if (proc.child.exitCode !== null) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${name} did not start; see ${log}`);
}

const tilePath = (t: Target, a: TileAddress) => `/api/tiles/${t.slideId}_files/${a.level}/${a.col}_${a.row}.jpeg`;

async function firstTile(t: Target, a: TileAddress): Promise<number> {
  const began = performance.now();
  const res = await fetch(`http://127.0.0.1:${t.port}${tilePath(t, a)}`, { headers: { cookie: `${IMAGE_COOKIE}=${t.token}` } });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${t.name}: first tile answered ${res.status}`);
  return performance.now() - began;
}

/** One pass: every connection takes the next request of the shared list (wrapping around), for `seconds`. */
async function replay(t: Target, list: TileAddress[]): Promise<Result> {
  let next = 0;
  const paths = list.map((a) => tilePath(t, a));
  const r = await autocannon({
    url: `http://127.0.0.1:${t.port}`, connections, duration: seconds, headers: { cookie: `${IMAGE_COOKIE}=${t.token}` },
    requests: [{ method: 'GET', setupRequest: (req: object) => ({ ...req, path: paths[next++ % paths.length] }) }],
  });
  return {
    name: t.name, requests: r.requests.total, tilesPerSecond: r.requests.total / (r.duration as number),
    p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.non2xx + r.timeouts,
  };
}

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

try {
  await main();
} finally {
  await stopAll();
}
