/**
 * Upload throughput on loopback, not a test (ARCHITECTURE.md §5). One file (default 1 GiB) goes
 *   (a) through our POST /api/upload/large: 2 MiB chunks, per-chunk and whole-file MD5 checked by the server,
 *       4 requests in flight, real HTTP with a bearer token, the finished file fsynced before "done";
 *   (b) through @tus/server + @tus/file-store: 2 MiB PATCHes (tus is sequential by design);
 *   (c) as plain 2 MiB HTTP PUTs, 4 in flight, streamed to disk by a minimal node:http server;
 *   (d) as a raw disk write of the same bytes (2 MiB writes, page cache, like (b) and (c)).
 * Each server runs in its own process, so the client never shares its event loop. Ours is the app as `npm start`
 * runs it (server/main.ts: WORKERS processes, default the number of cores, sharing the port). The client computes
 * each chunk's MD5 as it sends it, as the browser's hashing worker does; total_md5 is computed before timing, as
 * the browser computes it before its first chunk. Our server's CPU and memory are those of all its processes.
 * Besides MB/s it prints the CPU seconds per GiB each server process and the client spent: on a shared machine
 * the wall times move with everyone else's load, the CPU cost much less.
 *
 *   node --import tsx scripts/bench/upload.ts [--size-mb 1024] [--runs 3] [--profile DIR]
 * --profile writes a V8 CPU profile of our server process to DIR (open it in Chrome DevTools).
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { constants, createHash, publicEncrypt, randomFillSync } from 'node:crypto';
import { createReadStream, createWriteStream, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import { UPLOAD_CHUNK_BYTES as CHUNK, UPLOAD_MD5_MAX_BYTES as MD5_LIMIT } from '../../src/core/constants.js';

const IN_FLIGHT = 4;

type Kind = 'tus' | 'plain';
type ToChild = { type: 'rss' };
type FromChild = { type: 'ready'; port: number } | { type: 'rss'; rss: number; maxRss: number; cpuSeconds: number };

// ───────────────────────────── parent: client and report ─────────────────────────────

async function main(): Promise<void> {
  const sizeMb = Number(arg('--size-mb') ?? 1024);
  const runs = Number(arg('--runs') ?? 3);
  const size = sizeMb * 1024 * 1024;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-bench-upload-'));
  const children: ChildProcess[] = [];
  try {
    const source = path.join(work, 'source.bin');
    console.log(`generating ${sizeMb} MiB in ${work} …`);
    const hashes = await generate(source, size);

    const profile = arg('--profile');
    const ours = await startApp(path.join(work, 'ours'), children, profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profile)] : []);
    const tus = await start('tus', path.join(work, 'tus'), children);
    const plain = await start('plain', path.join(work, 'plain'), children);
    const idleRss = treeUsage(ours.child.pid!).rss;

    // One small untimed round each, so start-up work (JIT, our assembly worker's first load) is not timed.
    const warm = path.join(work, 'warm.bin');
    const warmSize = 8 * CHUNK;
    const warmHashes = await generate(warm, warmSize);
    await uploadOurs(warm, warmSize, warmHashes, ours.port, ours.token);
    await uploadTus(warm, warmSize, tus.port);
    await uploadPlain(warm, warmSize, plain.port);
    await fs.rm(path.join(work, 'ours', 'uploads'), { recursive: true, force: true });
    await emptyDir(path.join(work, 'tus'));
    await emptyDir(path.join(work, 'plain'));

    type Method = 'ours' | 'tus' | 'plain' | 'raw';
    const servers: Partial<Record<Method, ChildProcess>> = { ours: ours.child, tus: tus.child, plain: plain.child };
    /** CPU seconds so far of a server: all processes of ours (the cluster), the one process of the others. */
    const serverCpu = async (method: Method) => (method === 'ours' ? treeUsage(ours.child.pid!).cpuSeconds : servers[method] ? (await rssOf(servers[method]!)).cpuSeconds : 0);
    const times: Record<Method, number[]> = { ours: [], tus: [], plain: [], raw: [] };
    const cpu: Record<Method, { server: number; client: number }> = { ours: { server: 0, client: 0 }, tus: { server: 0, client: 0 }, plain: { server: 0, client: 0 }, raw: { server: 0, client: 0 } };
    /** Wall time of `task`, and the CPU time its server process and this client process spent meanwhile. */
    const measure = async (method: Method, task: () => Promise<void>) => {
      const server = servers[method];
      const serverBefore = await serverCpu(method);
      const clientBefore = process.cpuUsage();
      times[method].push(await timed(task));
      const client = process.cpuUsage(clientBefore);
      cpu[method].client += (client.user + client.system) / 1e6;
      if (server) cpu[method].server += (await serverCpu(method)) - serverBefore;
    };

    const loadBefore = os.loadavg()[0]!;
    for (let run = 1; run <= runs; run++) {
      let stored = '';
      await measure('ours', async () => {
        stored = await uploadOurs(source, size, hashes, ours.port, ours.token);
      });
      if (run === 1) await verifyStored(path.join(work, 'ours', stored), size, hashes.total);
      await fs.rm(path.join(work, 'ours', 'uploads'), { recursive: true, force: true });
      await measure('tus', () => uploadTus(source, size, tus.port));
      await emptyDir(path.join(work, 'tus'));
      await measure('plain', () => uploadPlain(source, size, plain.port));
      await emptyDir(path.join(work, 'plain'));
      const rawTarget = path.join(work, 'raw.bin');
      await measure('raw', () => rawWrite(source, rawTarget, size));
      await fs.rm(rawTarget, { force: true });
      console.log(`run ${run}/${runs}: ours ${mbps(size, times.ours.at(-1)!)}  tus ${mbps(size, times.tus.at(-1)!)}  plain ${mbps(size, times.plain.at(-1)!)}  raw ${mbps(size, times.raw.at(-1)!)} MB/s`);
    }
    const peak = treeUsage(ours.child.pid!);

    const rate = (m: Method) => size / 1e6 / median(times[m]);
    const perGib = (seconds: number) => (seconds / runs / (size / 1024 ** 3)).toFixed(2);
    const rows: [Method, string][] = [
      ['ours', `(a) ours (npm start, ${ours.workers} workers): /api/upload/large, 2 MiB, MD5s, 4 in flight`],
      ['tus', '(b) @tus/server + @tus/file-store, 2 MiB PATCH, sequential'],
      ['plain', '(c) plain HTTP PUT, 2 MiB, 4 in flight, streamed to disk'],
      ['raw', '(d) raw disk write, 2 MiB writes'],
    ];
    console.log(`\nupload of ${sizeMb} MiB on loopback, median of ${runs} run(s), MB = 10^6 bytes; CPU = seconds per GiB, all threads`);
    console.log(`${'method'.padEnd(78)} MB/s  server CPU  client CPU`);
    for (const [m, name] of rows) {
      const server = servers[m] ? perGib(cpu[m].server) : '-';
      console.log(`${name.padEnd(78)} ${rate(m).toFixed(0).padStart(4)}  ${server.padStart(10)}  ${perGib(cpu[m].client).padStart(10)}`);
    }
    console.log(`\nours / tus        ${(rate('ours') / rate('tus')).toFixed(2)}×   (target ≥ 1.3)`);
    console.log(`ours / plain PUT  ${(rate('ours') / rate('plain')).toFixed(2)}×   (target ≥ 0.8)`);
    console.log(`our server RSS (all processes): ${mib(idleRss)} MiB idle after start, ${mib(peak.rss)} MiB after the runs, ${mib(peak.maxRss)} MiB sum of each process's peak`);
    console.log(`load average (1 min) on ${os.cpus().length} CPUs: ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after`);
  } finally {
    await Promise.all(children.map(stop));
    await fs.rm(work, { recursive: true, force: true });
  }
}

/** Random bytes (fixed seed is not needed: every method sends the same file) and the client-side MD5s. */
async function generate(file: string, size: number): Promise<{ chunks: string[]; total: string }> {
  const out = await fs.open(file, 'w');
  const block = Buffer.allocUnsafe(CHUNK);
  const total = createHash('md5');
  const chunks: string[] = [];
  try {
    for (let offset = 0; offset < size; offset += CHUNK) {
      const bytes = block.subarray(0, Math.min(CHUNK, size - offset));
      randomFillSync(bytes);
      chunks.push(createHash('md5').update(bytes).digest('hex'));
      if (offset < MD5_LIMIT) total.update(bytes.subarray(0, Math.min(bytes.length, MD5_LIMIT - offset)));
      await out.write(bytes, 0, bytes.length, offset);
    }
  } finally {
    await out.close();
  }
  return { chunks, total: total.digest('hex') };
}

/** Sends every chunk and answers the stored path the server gave for the finished file. */
async function uploadOurs(source: string, size: number, hashes: { chunks: string[]; total: string }, port: number, token: string): Promise<string> {
  const totalNum = Math.max(1, Math.ceil(size / CHUNK));
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  const boundary = '----dsmsbench' + Date.now().toString(16);
  const fields = (num: number, md5: string) => ({
    file_name: 'bench.kfb', num: String(num), total_num: String(totalNum), md5, total_md5: hashes.total, total_size: String(size),
  });
  let done: { code: number; path?: string } | undefined;
  await eachChunk(source, size, async (num, bytes) => {
    // As the browser does: the chunk's MD5 is computed by the client, here as the chunk is read.
    const md5 = createHash('md5').update(bytes).digest('hex');
    const head = Buffer.from(
      Object.entries(fields(num, md5)).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')
      + `--${boundary}\r\nContent-Disposition: form-data; name="blob"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const res = await request({
      port, agent, method: 'POST', path: '/api/upload/large',
      headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.length + bytes.length + tail.length },
    }, [head, bytes, tail]);
    if (res.status !== 200) throw new Error(`chunk ${num}: ${res.status} ${res.body}`);
    const data = JSON.parse(res.body).data as { code: number; path?: string };
    if (data.code === 1) done = data;
  });
  agent.destroy();
  if (!done?.path) throw new Error('the upload never completed');
  return done.path;
}

/** Outside the timing: the assembled file has the size and leading-bytes MD5 of the source. */
async function verifyStored(file: string, size: number, totalMd5: string): Promise<void> {
  const hash = createHash('md5');
  let seen = 0;
  for await (const piece of createReadStream(file, { end: MD5_LIMIT - 1 })) {
    hash.update(piece as Buffer);
    seen += (piece as Buffer).length;
  }
  const { size: storedSize } = await fs.stat(file);
  if (storedSize !== size || hash.digest('hex') !== totalMd5 || seen !== Math.min(size, MD5_LIMIT)) throw new Error(`${file} is not the file that was sent`);
}

async function uploadTus(source: string, size: number, port: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const created = await request({ port, agent, method: 'POST', path: '/files', headers: { 'tus-resumable': '1.0.0', 'upload-length': String(size), 'content-length': 0 } }, []);
  if (created.status !== 201) throw new Error(`tus create: ${created.status} ${created.body}`);
  const location = new URL(created.headers.location!, `http://127.0.0.1:${port}`).pathname;
  await eachChunk(source, size, async (_num, bytes, offset) => {
    const res = await request({
      port, agent, method: 'PATCH', path: location,
      headers: { 'tus-resumable': '1.0.0', 'upload-offset': String(offset), 'content-type': 'application/offset+octet-stream', 'content-length': bytes.length },
    }, [bytes]);
    if (res.status !== 204) throw new Error(`tus patch: ${res.status} ${res.body}`);
  }, 1);
  agent.destroy();
}

async function uploadPlain(source: string, size: number, port: number): Promise<void> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });
  await eachChunk(source, size, async (num, bytes) => {
    const res = await request({ port, agent, method: 'PUT', path: `/put/${num}`, headers: { 'content-length': bytes.length } }, [bytes]);
    if (res.status !== 204) throw new Error(`put ${num}: ${res.status}`);
  });
  agent.destroy();
}

async function rawWrite(source: string, target: string, size: number): Promise<void> {
  const out = await fs.open(target, 'w');
  try {
    await eachChunk(source, size, async (_num, bytes, offset) => {
      await out.write(bytes, 0, bytes.length, offset);
    }, 1);
  } finally {
    await out.close();
  }
}

/** Reads the source in 2 MiB chunks (one buffer per worker) and hands them to `send`, `parallel` at a time. */
async function eachChunk(source: string, size: number, send: (num: number, bytes: Buffer, offset: number) => Promise<void>, parallel = IN_FLIGHT): Promise<void> {
  const file = await fs.open(source, 'r');
  const totalNum = Math.max(1, Math.ceil(size / CHUNK));
  let next = 1;
  try {
    await Promise.all(Array.from({ length: parallel }, async () => {
      const buffer = Buffer.allocUnsafe(CHUNK);
      while (next <= totalNum) {
        const num = next++;
        const offset = (num - 1) * CHUNK;
        const { bytesRead } = await file.read(buffer, 0, Math.min(CHUNK, size - offset), offset);
        await send(num, buffer.subarray(0, bytesRead), offset);
      }
    }));
  } finally {
    await file.close();
  }
}

function request(options: http.RequestOptions & { port: number }, body: Buffer[]): Promise<{ status: number; body: string; headers: http.IncomingHttpHeaders }> {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: '127.0.0.1', ...options }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString(), headers: res.headers }));
      res.on('error', reject);
    });
    req.on('error', reject);
    for (const part of body) req.write(part);
    req.end();
  });
}

// ───────────────────────────── children: the servers ─────────────────────────────

/**
 * Our app as `npm start` runs it (server/main.ts with its defaults: WORKERS = the number of cores), on loopback, with
 * its data under `dataDir`; logs in as the technician the way the browser does.
 */
async function startApp(dataDir: string, children: ChildProcess[], nodeArgs: string[]): Promise<{ child: ChildProcess; port: number; token: string; workers: number }> {
  await fs.mkdir(dataDir, { recursive: true });
  const port = await new Promise<number>((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const main = fileURLToPath(new URL('../../server/main.ts', import.meta.url));
  const env = { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', DIST_DIR: '/nonexistent' };
  const child = spawn(process.execPath, ['--import', 'tsx', ...nodeArgs, main], { env, stdio: ['ignore', 'inherit', 'inherit'] });
  children.push(child);
  const base = `http://127.0.0.1:${port}`;
  const workers = Number(process.env.WORKERS) || os.availableParallelism();
  // One process when WORKERS=1, else the primary and its workers.
  const processes = workers === 1 ? 1 : workers + 1;
  for (let tries = 0; ; tries++) {
    if (child.exitCode !== null) throw new Error(`the app exited with ${child.exitCode}`);
    const up = await request({ port, method: 'GET', path: '/api/auth/challenge' }, []).catch(() => undefined);
    if (up?.status === 200 && treeUsage(child.pid!).pids.length >= processes) break;
    if (tries > 600) throw new Error(`the app did not answer at ${base}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  // The last worker to start may still be loading after the first answered.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const { key_id, public_key, nonce } = JSON.parse((await request({ port, method: 'GET', path: '/api/auth/challenge' }, [])).body).data;
  const password = publicEncrypt({ key: public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${nonce}:dsms-demo`)).toString('base64');
  const body = Buffer.from(JSON.stringify({ username: 'technician', password, key_id }));
  const login = await request({ port, method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json', 'content-length': body.length } }, [body]);
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.body}`);
  return { child, port, token: JSON.parse(login.body).data.access_token, workers };
}

/** CPU seconds, RSS now and the sum of each process's peak RSS, of a process and its children (Linux /proc). */
function treeUsage(root: number): { pids: number[]; cpuSeconds: number; rss: number; maxRss: number } {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    const children = readProc(`/proc/${pids[i]}/task/${pids[i]}/children`).trim();
    if (children) pids.push(...children.split(/\s+/).map(Number));
  }
  let ticks = 0;
  let rss = 0;
  let maxRss = 0;
  for (const pid of pids) {
    const stat = readProc(`/proc/${pid}/stat`).replace(/^.*\) /, '').split(' ');
    ticks += Number(stat[11] ?? 0) + Number(stat[12] ?? 0);
    const status = readProc(`/proc/${pid}/status`);
    rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    maxRss += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  }
  return { pids, cpuSeconds: ticks / 100, rss, maxRss };
}

function readProc(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}

async function start(kind: Kind, dir: string, children: ChildProcess[], nodeArgs: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  await fs.mkdir(dir, { recursive: true });
  const child = fork(fileURLToPath(import.meta.url), ['--serve', kind, dir], { execArgv: ['--import', 'tsx', ...nodeArgs], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  const ready = await new Promise<FromChild>((resolve, reject) => {
    child.once('message', (m) => resolve(m as FromChild));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  if (ready.type !== 'ready') throw new Error(`${kind} server did not start`);
  return { child, port: ready.port };
}

/** Disconnecting lets the child exit on its own, so a CPU profile gets written; a stuck child is killed. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Ours (spawned, no IPC channel) stops on SIGTERM as under a service manager; the others when disconnected.
  if (child.connected) child.disconnect();
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill(), 5000);
  await exited;
  clearTimeout(timer);
}

function rssOf(child: ChildProcess): Promise<{ rss: number; maxRss: number; cpuSeconds: number }> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { rss: number; maxRss: number; cpuSeconds: number }));
    child.send({ type: 'rss' } satisfies ToChild);
  });
}

async function serve(kind: Kind, dir: string): Promise<void> {
  const port = kind === 'tus' ? await serveTus(dir) : await servePlain(dir);
  process.on('message', () => {
    const { user, system } = process.cpuUsage();
    process.send!({ type: 'rss', rss: process.memoryUsage().rss, maxRss: process.resourceUsage().maxRSS * 1024, cpuSeconds: (user + system) / 1e6 } satisfies FromChild);
  });
  process.on('disconnect', () => process.exit(0));
  process.send!({ type: 'ready', port } satisfies FromChild);
}

async function serveTus(directory: string): Promise<number> {
  const { Server } = await import('@tus/server');
  const { FileStore } = await import('@tus/file-store');
  const tus = new Server({ path: '/files', datastore: new FileStore({ directory }) });
  const server = http.createServer((req, res) => void tus.handle(req, res));
  return listen(server);
}

async function servePlain(dir: string): Promise<number> {
  const server = http.createServer((req, res) => {
    const num = /^\/put\/(\d+)$/.exec(req.url ?? '')?.[1];
    if (req.method !== 'PUT' || !num) return void res.writeHead(404).end();
    pipeline(req, createWriteStream(path.join(dir, num))).then(
      () => res.writeHead(204).end(),
      () => res.writeHead(500).end(),
    );
  });
  return listen(server);
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

// ───────────────────────────── small helpers ─────────────────────────────

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

async function timed(task: () => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await task();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

async function emptyDir(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir)) await fs.rm(path.join(dir, name), { recursive: true, force: true });
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const mbps = (bytes: number, seconds: number) => (bytes / 1e6 / seconds).toFixed(0);
const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);

// Last, so every helper above is initialised before the top-level await runs.
if (process.argv[2] === '--serve') {
  await serve(process.argv[3] as Kind, process.argv[4]!);
} else {
  await main();
}
