/**
 * Load through nginx to two app nodes, and to one (not a test): lists, case detail, tiles and small uploads mixed,
 * `--connections` in all (a quarter per kind, each kind an autocannon client in a process of its own) for
 * `--seconds`; prints requests/s, p50/p99 and errors per kind for two nodes and for one, and the ratio. The cluster
 * is the cluster test's (tests/process/cluster.test.ts): the built app as `npm start` runs it (primary + 2 workers)
 * per node, PostgreSQL, RabbitMQ, S3 (s3rver, in this process) and Debian's nginx with deploy/nginx/*.conf.
 *
 *   npm run build && node --import tsx scripts/bench/cluster-load.ts [--seconds 60] [--connections 100]
 *     [--pg postgres://postgres@127.0.0.1:5432/test] [--rabbit amqp://guest:guest@127.0.0.1:5672]
 *
 * On one machine both nodes share its cores, so the ratio says what a second node costs or gains there; on two
 * machines each node has its own.
 */
import { execFile } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs, promisify } from 'node:util';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { login, multipartChunk, request } from '../../tests/api/server-process.js';
import { startAppProcess, until, type AppProcess } from '../../tests/process/app-process.js';
import { freshDatabase, startNginx } from '../../tests/process/cluster-parts.js';
import { startLoopbackS3 } from '../../tests/support/s3-server.js';
import type { LoadSpec } from './cluster/load-client.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    connections: { type: 'string', default: '100' },
    pg: { type: 'string', default: process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test' },
    rabbit: { type: 'string', default: process.env.TEST_RABBITMQ_URL ?? 'amqp://guest:guest@127.0.0.1:5672' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);
const KINDS: LoadSpec['kind'][] = ['lists', 'case', 'tiles', 'uploads'];
const CLIENT = path.join(path.dirname(fileURLToPath(import.meta.url)), 'cluster', 'load-client.ts');
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');

interface Row { kind: string; requests: number; perSecond: number; p50: number; p99: number; non2xx: number; errors: number; statuses: Record<string, number> }

async function uploadSlide(base: string, token: string, work: string): Promise<number> {
  const file = path.join(work, 'load.tiff');
  await generateDemoSlide({ out: file, width: 20000, height: 15000, tileSize: 256, mpp: 0.25, seed: 7, slideId: 'LOAD-1' });
  const data = fs.readFileSync(file);
  const total = Math.ceil(data.length / CHUNK);
  let last: { path: string } | undefined;
  for (let num = 1; num <= total; num++) {
    const bytes = data.subarray((num - 1) * CHUNK, num * CHUNK);
    const body = multipartChunk({ file_name: 'load.tiff', num, total_num: total, md5: md5(bytes), total_md5: md5(data) }, bytes);
    last = (await request(base, 'POST', '/api/upload/large', { authorization: `Bearer ${token}`, 'content-type': body.type }, body.payload)).json().data;
  }
  const bound = await request(base, 'POST', '/api/data/kfb/bind', { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ path: last!.path })));
  const id = bound.json().data.id as number;
  await until(async () => (await request(base, 'GET', `/api/tiles/${id}.dzi`, { authorization: `Bearer ${token}` })).status === 200, 'the load slide to be ready', 120_000);
  return id;
}

/** Tiles of the levels a reader pans at (the last four), every one that exists (the descriptor's tile size). */
function tilePaths(id: number, width: number, height: number, tileSize: number): string[] {
  const maxLevel = Math.ceil(Math.log2(Math.max(width, height)));
  const paths: string[] = [];
  for (let level = maxLevel - 3; level <= maxLevel; level++) {
    const scale = 2 ** (maxLevel - level);
    const cols = Math.ceil(Math.ceil(width / scale) / tileSize);
    const rows = Math.ceil(Math.ceil(height / scale) / tileSize);
    for (let c = 0; c < cols; c++) for (let r = 0; r < rows; r++) paths.push(`/api/tiles/${id}_files/${level}/${c}_${r}.jpeg`);
  }
  return paths;
}

async function load(base: string, token: string, caseIds: number[], tiles: string[], runSeconds = seconds): Promise<Row[]> {
  const run = promisify(execFile);
  return Promise.all(KINDS.map(async (kind) => {
    const spec: LoadSpec = { kind, base, token, connections: Math.max(1, Math.round(connections / KINDS.length)), seconds: runSeconds, caseIds, tiles };
    // The tile list is too long for a command line: the spec goes in a file.
    const file = path.join(os.tmpdir(), `dsms-load-${kind}-${randomBytes(4).toString('hex')}.json`);
    fs.writeFileSync(file, JSON.stringify(spec));
    try {
      const { stdout } = await run(process.execPath, ['--import', 'tsx', CLIENT, file], { maxBuffer: 2 ** 24 });
      return JSON.parse(stdout.trim().split('\n').pop()!) as Row;
    } finally {
      fs.rmSync(file, { force: true });
    }
  }));
}

function print(title: string, rows: Row[]) {
  console.log(`\n${title}`);
  console.log('| kind | requests | req/s | p50 ms | p99 ms | non-2xx (by status) | errors |');
  console.log('| --- | ---: | ---: | ---: | ---: | ---: | ---: |');
  const statuses = (r: Row) => Object.entries(r.statuses).map(([code, n]) => `${code}: ${n}`).join(', ');
  for (const r of rows) console.log(`| ${r.kind} | ${r.requests} | ${r.perSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.non2xx}${r.non2xx ? ` (${statuses(r)})` : ''} | ${r.errors} |`);
}

async function main() {
  console.log(`load average at the start: ${os.loadavg().map((l) => l.toFixed(2)).join(' / ')}; ${os.cpus().length} cores; ${connections} connections for ${seconds} s per run`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-cluster-load-'));
  const s3 = await startLoopbackS3('dsms-load', 'load');
  const db = await freshDatabase(values.pg!);
  const env = {
    ...s3.env, DATABASE_URL: db.url, RABBITMQ_URL: values.rabbit!, RABBITMQ_USER_PREFIX: `dsmsld-${randomBytes(3).toString('hex')}-`,
    SECRETS_KEY: randomBytes(32).toString('hex'), TRUST_PROXY: 'loopback',
  };
  const nodes: AppProcess[] = [];
  try {
    nodes.push(await startAppProcess(env));
    nodes.push(await startAppProcess(env));
    const token = await login(nodes[0]!.base, 'admin', DEMO_PASSWORDS.admin);
    const id = await uploadSlide(nodes[0]!.base, token, work);
    const dzi = (await request(nodes[0]!.base, 'GET', `/api/tiles/${id}.dzi`, { authorization: `Bearer ${token}` })).body.toString();
    const [width, height] = [Number(/Width="(\d+)"/.exec(dzi)![1]), Number(/Height="(\d+)"/.exec(dzi)![1])];
    const tiles = tilePaths(id, width, height, Number(/TileSize="(\d+)"/.exec(dzi)![1]));
    // The cases the signed-in user reaches (their hospital's), as a reader's list shows them: another hospital's is a 404.
    const listed = (await request(nodes[0]!.base, 'GET', '/api/pathology/lists?page=1&limit=100', { authorization: `Bearer ${token}` })).json().data;
    const caseIds = ((listed.data ?? listed) as { id: number }[]).map((r) => r.id);
    console.log(`slide ${id}: ${width}x${height}, ${tiles.length} tiles in the panned levels; ${caseIds.length} cases`);

    const results: Record<string, Row[]> = {};
    for (const [title, behind] of [['two nodes', nodes], ['one node', nodes.slice(0, 1)]] as const) {
      const nginx = await startNginx(behind.map((n) => n.port));
      try {
        await load(nginx.base, token, caseIds, tiles, 10); // warm-up: caches, connection pools, the JIT
        results[title] = await load(nginx.base, token, caseIds, tiles);
      } finally {
        await nginx.stop();
      }
      print(`${title} behind nginx`, results[title]!);
    }
    console.log('\n| kind | two nodes req/s | one node req/s | ratio |');
    console.log('| --- | ---: | ---: | ---: |');
    for (const kind of KINDS) {
      const [a, b] = [results['two nodes']!.find((r) => r.kind === kind)!, results['one node']!.find((r) => r.kind === kind)!];
      console.log(`| ${kind} | ${a.perSecond.toFixed(0)} | ${b.perSecond.toFixed(0)} | ${(a.perSecond / b.perSecond).toFixed(2)}x |`);
    }
  } finally {
    for (const n of nodes) await n.cleanup();
    await db.drop();
    await s3.close();
    fs.rmSync(work, { recursive: true, force: true });
  }
}

await main();
