import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import mqtt from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { scheduledJobTypes } from '../../server/modules/job-types.js';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { S3Storage } from '../../server/storage/s3-storage.js';
import { login, multipartChunk, request, type Answer } from '../api/server-process.js';
import { startLoopbackS3, type LoopbackS3 } from '../support/s3-server.js';
import { realSlide, realSlides } from '../support/real-slides.js';
import { alive, startAppProcess, until, type AppProcess } from './app-process.js';
import { freshDatabase, nginxPath, startNginx, type ClusterDatabase, type Nginx } from './cluster-parts.js';

/**
 * Two app nodes (each the built app as `npm start` runs it: a primary and two workers) behind Debian's nginx with the
 * deployment guide's configuration, sharing PostgreSQL, RabbitMQ (realtime) and S3 (s3rver), each with a data
 * directory of its own, as two machines would. Then a node is killed with SIGKILL, primary and workers at once, mid-
 * upload and mid-conversion, and what was acknowledged is checked to be all there (issue 29).
 */
const pgUrl = process.env.TEST_DATABASE_URL;
const rabbitUrl = process.env.TEST_RABBITMQ_URL;
const missing = [!pgUrl && 'TEST_DATABASE_URL', !rabbitUrl && 'TEST_RABBITMQ_URL', !nginxPath() && 'nginx'].filter(Boolean);
if (missing.length && process.env.CI) throw new Error(`the cluster test needs ${missing.join(', ')} (.ci/run provides them)`);
if (missing.length) console.warn(`cluster test skipped: ${missing.join(', ')} absent`);
const haveReal = !missing.length && realSlides('test3-DAPI-2-(387).ndpi');

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const json = (body: unknown) => Buffer.from(JSON.stringify(body));

describe.skipIf(missing.length > 0)('two app nodes behind nginx, sharing PostgreSQL, RabbitMQ and S3', { timeout: 240_000 }, () => {
  let s3: LoopbackS3;
  let db: ClusterDatabase;
  let env: Record<string, string>;
  const nodes: AppProcess[] = [];
  let nginx: Nginx;
  let work: string;
  let storage: S3Storage;
  /** The slide the alternating upload made, for the later tests' tiles. */
  let uploadedSlide = 0;

  /** What a node needs to join the cluster: the same database, broker, bucket and secrets key. */
  const startNode = () => startAppProcess(env);

  beforeAll(async () => {
    work = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-cluster-files-'));
    s3 = await startLoopbackS3('dsms-cluster', 'hospital-group');
    storage = new S3Storage(s3.settings);
    db = await freshDatabase(pgUrl!);
    env = {
      ...s3.env,
      DATABASE_URL: db.url,
      RABBITMQ_URL: rabbitUrl!,
      RABBITMQ_USER_PREFIX: `dsmscl-${randomBytes(3).toString('hex')}-`,
      SECRETS_KEY: randomBytes(32).toString('hex'),
      TRUST_PROXY: 'loopback',
      JOB_LEASE_SECONDS: '4',
      REALTIME_SWEEP_SECONDS: '1',
    };
    // The first node migrates and seeds; the second finds both done (docs/deploy.md: upgrades start one node first).
    nodes.push(await startNode());
    nodes.push(await startNode());
    nginx = await startNginx(nodes.map((n) => n.port));
    for (const n of nodes) n.child.unref();
  });

  afterAll(async () => {
    await nginx?.stop();
    for (const n of nodes) await n.cleanup();
    await db?.drop();
    storage?.close();
    await s3?.close();
    fs.rmSync(work, { recursive: true, force: true });
  });

  const via = (base: string) => ({
    get: (url: string, token?: string) => request(base, 'GET', url, token ? { authorization: `Bearer ${token}` } : {}),
    post: (url: string, body: unknown, token?: string) => request(base, 'POST', url, { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) }, json(body)),
  });
  const front = () => via(nginx.base);

  /** Sends chunk `num` of `data` as `name`; the answer's data. */
  async function chunk(base: string, token: string, name: string, data: Buffer, num: number): Promise<Answer> {
    const totalNum = Math.max(1, Math.ceil(data.length / CHUNK));
    const bytes = data.subarray((num - 1) * CHUNK, num * CHUNK);
    const body = multipartChunk({ file_name: name, num, total_num: totalNum, md5: md5(bytes), total_md5: md5(data) }, bytes);
    return request(base, 'POST', '/api/upload/large', { authorization: `Bearer ${token}`, 'content-type': body.type }, body.payload);
  }

  /** Upstreams nginx sent requests of `uri` to, from its access log. */
  const upstreamsOf = (uri: string) => new Set(nginx.accessLog().split('\n').filter((l) => l.includes(` ${uri} `)).map((l) => l.split(' ').pop()));

  /** Kills a node the way a power cut would: primary and workers with SIGKILL at once, no shutdown of any kind. */
  async function kill9(node: AppProcess): Promise<void> {
    const pids = [node.child.pid!, ...node.workerPids()];
    for (const pid of pids) if (alive(pid)) process.kill(pid, 'SIGKILL');
    await until(() => pids.every((pid) => !alive(pid)), `node ${node.port} to be gone`);
  }

  const jobOf = async (type: string, slideId: number) => (await db.client.query('SELECT status, lease_owner, attempts FROM jobs WHERE type = $1 AND slide_id = $2 ORDER BY id DESC LIMIT 1', [type, slideId])).rows[0] as { status: string; lease_owner: string | null; attempts: number } | undefined;
  const slideRow = async (id: number) => (await db.client.query('SELECT status, file_path, md5 FROM slides WHERE id = $1', [id])).rows[0];

  it('answers through nginx from both nodes, and runs each scheduled job once for the cluster', async () => {
    for (let i = 0; i < 6; i++) expect((await front().get('/api/auth/challenge')).status).toBe(200);
    expect(upstreamsOf('/api/auth/challenge')).toEqual(new Set(nodes.map((n) => `127.0.0.1:${n.port}`)));
    // Both primaries run the job queue; a schedule is one row whatever the number of nodes.
    for (const type of scheduledJobTypes().map((t) => t.type)) {
      const live = await db.client.query("SELECT count(*)::int AS n FROM jobs WHERE type = $1 AND status IN ('queued', 'running')", [type]);
      expect(live.rows[0].n, type).toBe(1);
    }
  });

  it('completes an upload whose chunks alternate between the nodes, binds it and serves its tiles from either', async () => {
    const token = await login(nginx.base, 'technician', DEMO_PASSWORDS.others);
    const file = path.join(work, 'alternating.tiff');
    await generateDemoSlide({ out: file, width: 12000, height: 9000, tileSize: 256, mpp: 0.25, seed: 29, slideId: 'CLUSTER-1' });
    const data = fs.readFileSync(file);
    const total = Math.ceil(data.length / CHUNK);
    expect(total).toBeGreaterThan(2);
    let last: Answer | undefined;
    for (let num = 1; num <= total; num++) {
      last = await chunk(nodes[num % 2]!.base, token, 'alternating.tiff', data, num);
      expect(last.status, last.body.toString()).toBe(200);
    }
    const done = last!.json().data;
    expect(done.code).toBe(1);
    const bound = await front().post('/api/data/kfb/bind', { path: done.path }, token);
    expect(bound.status, bound.body.toString()).toBe(200);
    const id = bound.json().data.id as number;
    uploadedSlide = id;
    await until(async () => (await slideRow(id))?.status === 'ready', 'the slide to be ingested by one of the nodes', 60_000);
    const row = await slideRow(id);
    expect(row.md5).toBe(md5(data));
    expect(md5(await storage.readRange(row.file_path, 0, data.length + 1))).toBe(md5(data));
    const tiles = await Promise.all(nodes.map((n) => via(n.base).get(`/api/tiles/${id}_files/10/1_1.jpeg`, token)));
    expect(tiles.map((t) => t.status)).toEqual([200, 200]);
    expect(tiles[0]!.body.equals(tiles[1]!.body)).toBe(true);
  });

  it('refuses on node B, within the documented few seconds, a session that logged out on node A; and its tiles', async () => {
    const token = await login(nodes[0]!.base, 'technician', DEMO_PASSWORDS.others);
    const [a, b] = nodes.map((n) => via(n.base));
    const id = uploadedSlide;
    expect((await b.get('/api/messages/unread-to-me', token)).status).toBe(200);
    expect((await b.get(`/api/tiles/${id}.dzi`, token)).status).toBe(200);
    expect((await a.post('/api/auth/logout', {}, token)).status).toBe(200);
    // The API reads the session from the database: at once.
    expect((await b.get('/api/messages/unread-to-me', token)).status).toBe(401);
    // The image routes keep sessions for up to 5 s per process (README, Sessions across nodes).
    const start = Date.now();
    await until(async () => (await b.get(`/api/tiles/${id}.dzi`, token)).status === 401, 'node B to refuse the tiles', 10_000);
    expect(Date.now() - start).toBeLessThan(10_000);
  });

  it('carries a push made on node B to a realtime client whose session connected through node A (RabbitMQ Web-MQTT)', async () => {
    const registrar = await login(nodes[0]!.base, 'registrar', DEMO_PASSWORDS.others);
    const admin = await login(nodes[1]!.base, 'admin', DEMO_PASSWORDS.admin);
    const conn = (await via(nodes[0]!.base).get('/api/realtime/connection', registrar)).json().data as { url: string; username: string; password: string | null };
    const url = conn.url.startsWith(':') ? `ws://127.0.0.1${conn.url}` : conn.url;
    const client = await mqtt.connectAsync(url, { username: conn.username, password: conn.password ?? registrar, reconnectPeriod: 0, connectTimeout: 20_000 });
    try {
      const me = (await db.client.query("SELECT id FROM users WHERE name = 'registrar'")).rows[0].id as number;
      await client.subscribeAsync(`dsms/u/${me}/#`);
      const arrived = new Promise<string>((resolve) => client.on('message', (topic) => resolve(topic)));
      const sent = await via(nodes[1]!.base).post('/api/messages/send', { user_ids: [me], title: 'across nodes', content: 'pushed through RabbitMQ' }, admin);
      expect(sent.status, sent.body.toString()).toBe(200);
      expect(await Promise.race([arrived, new Promise((r) => setTimeout(() => r('nothing in 20 s'), 20_000))])).toBe(`dsms/u/${me}/messages`);
    } finally {
      client.end(true);
    }
  });

  it('finishes an upload through node B after node A is killed mid-upload, and loses no acknowledged write', async () => {
    const token = await login(nginx.base, 'technician', DEMO_PASSWORDS.others);
    const admin = await login(nginx.base, 'admin', DEMO_PASSWORDS.admin);
    const me = (await db.client.query("SELECT id FROM users WHERE name = 'registrar'")).rows[0].id as number;
    const data = randomBytes(9 * CHUNK + 4321);
    const total = Math.ceil(data.length / CHUNK);
    // Writes through nginx all along: each answered 200 must be in the database afterwards.
    const acknowledged: string[] = [];
    let writing = true;
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        const title = `kill9-${i}`;
        const res = await front().post('/api/messages/send', { user_ids: [me], title, content: 'x' }, admin).catch(() => undefined);
        if (res?.status === 200) acknowledged.push(title);
      }
    })();
    for (let num = 1; num <= 4; num++) expect((await chunk(nodes[0]!.base, token, 'killed.svs', data, num)).status).toBe(200);
    await kill9(nodes[0]!);
    let last: Answer | undefined;
    for (let num = 5; num <= total; num++) {
      last = await chunk(nginx.base, token, 'killed.svs', data, num);
      expect(last.status, last.body.toString()).toBe(200);
    }
    writing = false;
    await writer;
    const done = last!.json().data;
    expect(done.code).toBe(1);
    expect(md5(await storage.readRange(done.path, 0, data.length + 1))).toBe(md5(data));
    expect(acknowledged.length).toBeGreaterThan(3);
    const stored = await db.client.query('SELECT DISTINCT title FROM messages WHERE title = ANY($1)', [acknowledged]);
    expect(stored.rows.length).toBe(acknowledged.length);
    // The node comes back as a new process on a new data directory: nothing of it was local.
    nodes[0] = await startNode();
    nodes[0].child.unref();
    await nginx.stop();
    nginx = await startNginx(nodes.map((n) => n.port));
  });

  it.skipIf(!haveReal)('finishes a conversion on the other node after the node running it is killed', async () => {
    const token = await login(nginx.base, 'technician', DEMO_PASSWORDS.others);
    const data = fs.readFileSync(realSlide('test3-DAPI-2-(387).ndpi'));
    const total = Math.ceil(data.length / CHUNK);
    let last: Answer | undefined;
    for (let num = 1; num <= total; num++) last = await chunk(nginx.base, token, 'fluorescence.ndpi', data, num);
    const bound = await front().post('/api/data/kfb/bind', { path: last!.json().data.path }, token);
    expect(bound.status, bound.body.toString()).toBe(200);
    const id = bound.json().data.id as number;
    // Caught running, then its node is killed: the owner is `host:pid:nonce` of a primary.
    let owner = '';
    await until(async () => {
      const job = await jobOf('slides.convert', id);
      owner = job?.status === 'running' ? job.lease_owner ?? '' : '';
      return owner !== '';
    }, 'the conversion to run', 60_000);
    const pid = Number(owner.split(':')[1]);
    const victim = nodes.findIndex((n) => n.child.pid === pid);
    expect(victim).toBeGreaterThanOrEqual(0);
    await kill9(nodes[victim]!);
    // After the lease (JOB_LEASE_SECONDS=4), the other node's runner takes it up and finishes it.
    await until(async () => (await jobOf('slides.convert', id))?.status === 'done', 'the conversion to finish on the other node', 120_000);
    // Its second attempt: the first died with its node.
    expect((await jobOf('slides.convert', id))!.attempts).toBe(2);
    await until(async () => (await slideRow(id))?.status === 'ready', 'the slide to be ready');
    const survivor = via(nodes[1 - victim]!.base);
    const tile = await survivor.get(`/api/tiles/${id}_files/8/0_0.jpeg`, token);
    expect(tile.status).toBe(200);
    expect(tile.body.subarray(0, 2).toString('hex')).toBe('ffd8');
  });
});
