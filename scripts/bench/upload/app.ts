import { constants, publicEncrypt } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { request } from './http.js';
import { treeUsage } from './usage.js';

/**
 * Our app as `npm start` runs it (server/main.ts with its defaults: WORKERS = the number of cores), on loopback, with
 * its data under `dataDir`; logs in as the technician the way the browser does.
 */
export async function startApp(dataDir: string, children: ChildProcess[], nodeArgs: string[]): Promise<{ child: ChildProcess; port: number; token: string; workers: number }> {
  await fs.mkdir(dataDir, { recursive: true });
  const port = await new Promise<number>((resolve) => {
    const probe = http.createServer().listen(0, '127.0.0.1', () => {
      const { port: free } = probe.address() as { port: number };
      probe.close(() => resolve(free));
    });
  });
  const main = fileURLToPath(new URL('../../../server/main.ts', import.meta.url));
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
  await jobsIdle(path.join(dataDir, 'dsms.sqlite'));
  const { key_id, public_key, nonce } = JSON.parse((await request({ port, method: 'GET', path: '/api/auth/challenge' }, [])).body).data;
  const password = publicEncrypt({ key: public_key, padding: constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha256' }, Buffer.from(`${nonce}:dsms-demo`)).toString('base64');
  const body = Buffer.from(JSON.stringify({ username: 'technician', password, key_id }));
  const login = await request({ port, method: 'POST', path: '/api/auth/login', headers: { 'content-type': 'application/json', 'content-length': body.length } }, [body]);
  if (login.status !== 200) throw new Error(`login: ${login.status} ${login.body}`);
  return { child, port, token: JSON.parse(login.body).data.access_token, workers };
}

/**
 * Waits until the background jobs queued at start (the demo seed's focus checks) are done: they are start-up work,
 * not the steady state an upload meets, and they write to the database the chunk route logs to.
 */
async function jobsIdle(sqliteFile: string): Promise<void> {
  const { default: Sqlite } = await import('better-sqlite3');
  const db = new Sqlite(sqliteFile, { readonly: true, fileMustExist: true });
  try {
    for (let tries = 0; tries < 900; tries++) {
      const { n } = db.prepare("SELECT count(*) AS n FROM jobs WHERE status IN ('queued', 'running')").get() as { n: number };
      if (n === 0) return;
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
    throw new Error('the app\'s start-up jobs did not finish');
  } finally {
    db.close();
  }
}
