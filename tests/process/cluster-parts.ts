import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { freePort } from '../api/server-process.js';
import { listening, until } from './app-process.js';

/** The shared parts of a cluster on loopback (tests/process/cluster.test.ts): nginx in front, a database of its own. */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const NGINX_DIR = path.join(ROOT, 'deploy', 'nginx');

export function nginxPath(): string | null {
  for (const p of ['/usr/sbin/nginx', '/usr/bin/nginx']) if (fs.existsSync(p)) return p;
  const found = spawnSync('sh', ['-c', 'command -v nginx'], { encoding: 'utf8' }).stdout.trim();
  return found || null;
}

export interface Nginx {
  base: string;
  port: number;
  /** Its access log: `upstream` is the node each request went to. */
  accessLog(): string;
  stop(): Promise<void>;
}

/**
 * Debian's nginx with the deployment guide's own files (deploy/nginx/*.conf), the nodes' addresses put in place of
 * the example ones, in a prefix directory of its own (no root, nothing of /etc/nginx used).
 */
export async function startNginx(nodePorts: number[]): Promise<Nginx> {
  const binary = nginxPath();
  if (!binary) throw new Error('nginx is not installed (apt-get install nginx-light)');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-nginx-'));
  // nginx's workers run as another user when started by root: they write request bodies under the prefix.
  fs.chmodSync(dir, 0o755);
  const port = await freePort();
  const upstream = fs.readFileSync(path.join(NGINX_DIR, 'dsms-upstream.conf'), 'utf8')
    .replace(/^\s*server 10\.0\.0\.\d+:8001 .*\n/gm, '')
    .replace('upstream dsms_nodes {', `upstream dsms_nodes {\n${nodePorts.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=3s;`).join('\n')}`);
  fs.writeFileSync(path.join(dir, 'dsms-upstream.conf'), upstream);
  fs.copyFileSync(path.join(NGINX_DIR, 'dsms-locations.conf'), path.join(dir, 'dsms-locations.conf'));
  fs.writeFileSync(path.join(dir, 'nginx.conf'), `
worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
    log_format upstream '$request_method $uri $status $upstream_addr';
    access_log ${dir}/access.log upstream;
    client_body_temp_path ${dir}/body;
    proxy_temp_path ${dir}/proxy;
    fastcgi_temp_path ${dir}/fastcgi;
    uwsgi_temp_path ${dir}/uwsgi;
    scgi_temp_path ${dir}/scgi;
    include ${dir}/dsms-upstream.conf;
    server {
        listen 127.0.0.1:${port};
        include ${dir}/dsms-locations.conf;
    }
}
`);
  const child: ChildProcess = spawn(binary, ['-p', dir, '-c', path.join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (d) => { output += String(d); });
  child.stderr!.on('data', (d) => { output += String(d); });
  try {
    await until(async () => child.exitCode !== null || (await listening(port)), 'nginx to listen', 15_000);
  } catch { /* reported below */ }
  if (child.exitCode !== null) throw new Error(`nginx did not start:\n${output}\n${fs.readFileSync(path.join(dir, 'error.log'), 'utf8')}`);
  return {
    base: `http://127.0.0.1:${port}`,
    port,
    accessLog: () => fs.readFileSync(path.join(dir, 'access.log'), 'utf8'),
    stop: async () => {
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r));
        child.kill('SIGQUIT');
        await exited;
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

export interface ClusterDatabase {
  url: string;
  /** A client of its own, for the test's checks. */
  client: pg.Client;
  drop(): Promise<void>;
}

/** An empty PostgreSQL database beside the test one (same server), dropped after; the nodes migrate it. */
export async function freshDatabase(testUrl: string): Promise<ClusterDatabase> {
  const name = `dsms_cluster_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: testUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const url = new URL(testUrl);
  url.pathname = `/${name}`;
  const client = new pg.Client({ connectionString: url.toString() });
  await client.connect();
  return {
    url: url.toString(),
    client,
    drop: async () => {
      await client.end().catch(() => undefined);
      const again = new pg.Client({ connectionString: testUrl });
      await again.connect();
      await again.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await again.end();
    },
  };
}
