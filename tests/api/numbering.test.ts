import { spawn, type ChildProcess } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../../server/db/connect.js';
import { DEMO_PASSWORDS } from '../../server/db/seed/demo.js';
import { call, databases, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 10 "200 pathology numbers from 8 parallel requests over 2 processes: all distinct, none skipped beyond
 * the rule". Each request registers a case, allocating its number in the registration's transaction.
 */
const LANES = 8;
const PER_LANE = 25;
const RULE = { library: 'frozen', prefix: 'Q', middle: 'YYYY', connector: '-', length: 4 };
const expected = () => Array.from({ length: LANES * PER_LANE }, (_, i) => `Q${new Date().getFullYear()}-${String(i + 1).padStart(4, '0')}`);

/** 8 lanes at once, each registering one case after another; `send(i)` picks the process for request i. */
async function registerMany(send: (i: number, body: object) => Promise<{ status: number; body: string }>): Promise<string[]> {
  const numbers: string[] = [];
  await Promise.all(Array.from({ length: LANES }, async (_, lane) => {
    for (let k = 0; k < PER_LANE; k++) {
      const res = await send(lane * PER_LANE + k, { case_type: 'frozen', specimens: [{ name: `lane ${lane} #${k}` }] });
      expect(res.status, res.body).toBe(200);
      numbers.push(JSON.parse(res.body).data.pathology_number);
    }
  }));
  return numbers.sort();
}

describe.runIf(databases.includes('sqlite'))('pathology numbers from two server processes on one SQLite file (WORKERS=2)', () => {
  let dir: string;
  let server: ChildProcess;
  let output = '';
  let baseUrl = '';

  /** One request on a connection of its own (no keep-alive), so the cluster picks a worker for each. */
  const request = (method: string, url: string, token?: string, body?: object): Promise<{ status: number; body: string }> => new Promise((resolve, reject) => {
    const data = body ? Buffer.from(JSON.stringify(body)) : undefined;
    const headers: Record<string, string> = { connection: 'close', 'user-language': 'en-US' };
    if (token) headers.authorization = `Bearer ${token}`;
    if (data) Object.assign(headers, { 'content-type': 'application/json', 'content-length': String(data.length) });
    const req = http.request(new URL(url, baseUrl), { method, agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
    });
    req.on('error', reject);
    req.end(data);
  });
  const login = async (username: string, password: string) => {
    const { key_id, public_key, nonce } = JSON.parse((await request('GET', '/api/auth/challenge')).body).data;
    const sealed = publicEncrypt({ key: public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${nonce}:${password}`)).toString('base64');
    const res = await request('POST', '/api/auth/login', undefined, { username, password: sealed, key_id });
    expect(res.status, res.body).toBe(200);
    return JSON.parse(res.body).data.access_token as string;
  };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-numbering-'));
    const port = await new Promise<number>((resolve, reject) => {
      const s = net.createServer().listen(0, '127.0.0.1', () => {
        const { port: p } = s.address() as net.AddressInfo;
        s.close(() => resolve(p));
      }).on('error', reject);
    });
    baseUrl = `http://127.0.0.1:${port}`;
    server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
      env: { ...process.env, WORKERS: '2', PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dir, DIST_DIR: '/nonexistent', LOG_LEVEL: 'info' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (d) => { output += String(d); });
    server.stderr!.on('data', (d) => { output += String(d); });
    // Migrations, the seed and two workers' start: minutes when the machine is shared by several test runs.
    const until = Date.now() + 240_000;
    while (!output.includes('2 worker processes')) {
      if (server.exitCode !== null || Date.now() > until) throw new Error(`server did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }, 270_000);

  afterAll(async () => {
    if (server && server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('hands out 200 numbers to 8 parallel registrars over both processes: all distinct, none skipped', async () => {
    const admin = await login('admin', DEMO_PASSWORDS.admin);
    expect((await request('PUT', '/api/pathology/numbering-rules', admin, RULE)).status).toBe(200);
    const registrar = await login('registrar', DEMO_PASSWORDS.others);
    const numbers = await registerMany((_i, body) => request('POST', '/api/pathology/register', registrar, body));
    expect(new Set(numbers).size).toBe(LANES * PER_LANE);
    expect(numbers).toEqual(expected());
    // Both workers registered cases (pino logs each request with its process id).
    const pids = new Set((output.match(/"pid":(\d+)[^\n]*"url":"\/api\/pathology\/register"/g) ?? []).map((l) => l.match(/"pid":(\d+)/)![1]));
    expect(pids.size).toBe(2);
  }, 120_000);
});

/** PostgreSQL: two apps with pools of their own on one database, requests alternating between them. */
describe.runIf(databases.includes('postgres'))('pathology numbers from two apps on one PostgreSQL database', () => {
  let h: Harness;
  let secondDb: Db;
  let second: FastifyInstance;

  beforeAll(async () => {
    h = await startApp('postgres');
    secondDb = connect({ databaseUrl: h.url });
    second = await testApp(secondDb);
    await second.ready();
  });
  afterAll(async () => {
    await second?.close();
    await secondDb?.destroy();
    await h?.close();
  });

  it('hands out 200 numbers to 8 parallel registrars over both apps: all distinct, none skipped', async () => {
    const admin = await tokenFor(h.app, 'admin');
    expect((await call(h.app, 'PUT', '/api/pathology/numbering-rules', { token: admin, payload: RULE })).statusCode).toBe(200);
    const registrar = await tokenFor(h.app, 'registrar');
    const apps = [h.app, second];
    const numbers = await registerMany(async (i, payload) => {
      const res = await call(apps[i % 2], 'POST', '/api/pathology/register', { token: registrar, payload });
      return { status: res.statusCode, body: res.body };
    });
    expect(new Set(numbers).size).toBe(LANES * PER_LANE);
    expect(numbers).toEqual(expected());
  }, 120_000);
});
