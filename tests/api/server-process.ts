import { spawn, type ChildProcess } from 'node:child_process';
import { constants, publicEncrypt } from 'node:crypto';
import http from 'node:http';
import net from 'node:net';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

/** The real server (server/main.ts) as a child process, and plain HTTP to it: for tests that kill or restart it. */

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    }).on('error', reject);
  });
}

export interface ServerProcess {
  child: ChildProcess;
  output(): string;
}

/** Starts `server/main.ts` with `env` added and waits until it listens. */
export async function startServer(env: Record<string, string>, ready = 'DSMS listening'): Promise<ServerProcess> {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts'], {
    env: { ...process.env, WORKERS: '1', HOST: '127.0.0.1', DIST_DIR: '/nonexistent', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => { output += String(d); });
  child.stderr!.on('data', (d) => { output += String(d); });
  // A limit for a server that never starts, not a speed check: a first start (migrations, seed, demo slides) beside
  // other suites on a loaded 2-core machine has taken more than a minute.
  const until = Date.now() + 180_000;
  while (!output.includes(ready)) {
    if (child.exitCode !== null || Date.now() > until) throw new Error(`server did not start:\n${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, output: () => output };
}

export interface Answer { status: number; body: Buffer; json<T = any>(): T }

/** One request on a connection of its own. */
export function request(baseUrl: string, method: string, url: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const req = http.request(new URL(url, baseUrl), { method, agent: false, headers: { connection: 'close', ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
      const parts: Buffer[] = [];
      res.on('data', (d: Buffer) => parts.push(d));
      res.on('end', () => {
        const all = Buffer.concat(parts);
        resolve({ status: res.statusCode ?? 0, body: all, json: () => JSON.parse(all.toString()) });
      });
    });
    req.on('error', reject);
    req.end(body);
  });
}

export async function login(baseUrl: string, username: string, password: string): Promise<string> {
  return (await loginSession(baseUrl, username, password)).token;
}

/** A sign-in's bearer token and the user's id. */
export async function loginSession(baseUrl: string, username: string, password: string): Promise<{ token: string; userId: number }> {
  const { key_id, public_key, nonce } = (await request(baseUrl, 'GET', '/api/auth/challenge')).json().data;
  const sealed = publicEncrypt({ key: public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${nonce}:${password}`)).toString('base64');
  const res = await request(baseUrl, 'POST', '/api/auth/login', { 'content-type': 'application/json' }, Buffer.from(JSON.stringify({ username, password: sealed, key_id })));
  const { access_token, user_id } = res.json().data;
  return { token: access_token, userId: user_id };
}

export function multipartChunk(fields: Record<string, string | number>, bytes: Buffer) {
  const boundary = `----dsmsproc${Math.random().toString(16).slice(2)}`;
  const head = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`).join('')
    + `--${boundary}\r\nContent-Disposition: form-data; name="blob"; filename="blob"\r\nContent-Type: application/octet-stream\r\n\r\n`;
  return { payload: Buffer.concat([Buffer.from(head), bytes, Buffer.from(`\r\n--${boundary}--\r\n`)]), type: `multipart/form-data; boundary=${boundary}` };
}

/**
 * The real server on one data folder, to be killed and started again (kill -9 tests): `start()` on a port chosen
 * once, `kill9()` waits for the process to be gone; stopped and the folder removed after the file's tests.
 */
export function restartableServer(prefix: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let server: ServerProcess | undefined;
  let port = 0;
  const exit = (signal: NodeJS.Signals) => {
    const exited = new Promise((r) => server!.child.once('exit', r));
    server!.child.kill(signal);
    return exited;
  };
  afterAll(async () => {
    if (server && server.child.exitCode === null) await exit('SIGTERM');
    fs.rmSync(dataDir, { recursive: true, force: true });
  });
  return {
    dataDir,
    base: () => `http://127.0.0.1:${port}`,
    /** `env`: settings of this start besides the port, the folder and a 2 s job lease. */
    async start(env: Record<string, string> = {}) {
      port ||= await freePort();
      // The port of the first start may be taken by another process by a restart (a client's ephemeral port, another
      // file's free port): the server then dies on EADDRINUSE and starts again on a new one (base() follows).
      for (let attempt = 1; ; attempt++) {
        try {
          server = await startServer({ PORT: String(port), DATA_DIR: dataDir, JOB_LEASE_SECONDS: '2', ...env });
          return;
        } catch (err) {
          if (attempt >= 3 || !String((err as Error).message).includes('EADDRINUSE')) throw err;
          port = await freePort();
        }
      }
    },
    kill9: () => exit('SIGKILL'),
  };
}
