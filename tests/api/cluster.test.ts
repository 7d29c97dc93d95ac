import { spawn, type ChildProcess } from 'node:child_process';
import { constants, createHash, publicEncrypt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../src/core/constants.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';

/**
 * `npm start` as it runs in production: server/main.ts with WORKERS=2, two processes behind one port, on a fresh
 * SQLite file (main.ts takes PostgreSQL only from DATABASE_URL; the API suites cover it). Every request goes on a
 * new connection, which the cluster hands to the workers in turn, so the chunks of one file reach both of them.
 */
describe('the server as two worker processes (WORKERS=2)', () => {
  let dir: string;
  let server: ChildProcess;
  let output = '';

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-cluster-'));
    const port = await freePort();
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, WORKERS: '2', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DIST_DIR: '/nonexistent', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d) => { output += String(d); });
    server.stderr!.on('data', (d) => { output += String(d); });
    const until = Date.now() + 50_000;
    while (!output.includes('2 worker processes')) {
      if (server.exitCode !== null || Date.now() > until) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  });

  afterAll(async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  const workerPids = () => new Set((output.match(/"pid":(\d+)[^\n]*Server listening at http:\/\/127\.0\.0\.1/g) ?? []).map((l) => Number(l.match(/"pid":(\d+)/)![1])));

  it('runs two workers that each answer', async () => {
    expect(workerPids().size).toBe(2);
    for (let i = 0; i < 4; i++) expect((await request('GET', '/api/auth/challenge')).status).toBe(200);
  });

  it('assembles a file whose chunks were spread over both workers, all sent at once', async () => {
    const token = await login('technician', DEMO_PASSWORDS.others);
    const data = Buffer.alloc(6 * CHUNK + 4321);
    for (let i = 0; i < data.length; i++) data[i] = (i * 131 + (i >> 13)) & 0xff;
    const totalNum = 7;
    const totalMd5 = md5(data);
    const answers = await Promise.all(Array.from({ length: totalNum }, async (_, i) => {
      const bytes = data.subarray(i * CHUNK, (i + 1) * CHUNK);
      const body = multipart({ file_name: 'cluster.kfb', num: i + 1, total_num: totalNum, md5: md5(bytes), total_md5: totalMd5 }, bytes);
      const res = await request('POST', '/api/upload/large', { authorization: `Bearer ${token}`, 'content-type': body.type }, body.payload);
      expect(res.status, res.body).toBe(200);
      return JSON.parse(res.body).data as { code: number; path?: string };
    }));
    const finished = answers.filter((a) => a.code === 1);
    expect(finished.length).toBeGreaterThanOrEqual(1);
    expect(new Set(finished.map((a) => a.path)).size).toBe(1);
    expect(fs.readFileSync(path.join(dir, finished[0]!.path!)).equals(data)).toBe(true);
    expect(fs.readdirSync(path.join(dir, 'uploads', 'parts'))).toEqual([]);
  });

  it('stops every worker on SIGTERM and exits cleanly', async () => {
    const pids = workerPids();
    const exited = new Promise<number | null>((r) => server.once('exit', (code) => r(code)));
    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    for (const pid of pids) expect(() => process.kill(pid, 0)).toThrow(expect.objectContaining({ code: 'ESRCH' }));
  });
});

const md5 = (b: Uint8Array | string) => createHash('md5').update(b).digest('hex');

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

let baseUrl = '';
/** One request on a connection of its own (no keep-alive), so the cluster picks a worker for each. */
function request(method: string, url: string, headers: Record<string, string> = {}, body?: Buffer): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const target = new URL(url, baseUrl);
    const req = http.request(target, { method, agent: false, headers: { connection: 'close', ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(parts).toString() }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

async function login(username: string, password: string): Promise<string> {
  const { key_id, public_key, nonce } = JSON.parse((await request('GET', '/api/auth/challenge')).body).data;
  const sealed = publicEncrypt({ key: public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${nonce}:${password}`)).toString('base64');
  const res = await request('POST', '/api/auth/login', { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ username, password: sealed, key_id })));
  expect(res.status, res.body).toBe(200);
  return JSON.parse(res.body).data.access_token;
}

function multipart(fields: Record<string, string | number>, bytes: Buffer) {
  const boundary = `----dsmscluster${Math.random().toString(16).slice(2)}`;
  const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')
    + `--${boundary}\r\nContent-Disposition: form-data; name="blob"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}
