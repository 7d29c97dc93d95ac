import { spawn, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, type Answer } from '../api/server-process.js';

/**
 * The app started as `npm start` starts it: the compiled server, a node:cluster primary with WORKERS worker processes
 * behind one port, the embedded realtime broker, on a fresh SQLite data folder, over real sockets. The server's
 * JSON log (LOG_LEVEL=info) is how a test tells the processes apart: every line carries its process's pid.
 */

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const STARTUP_MS = 120_000;

/** The node arguments that run the server: the build's dist-server/main.js, as `npm start` does. */
function serverArgs(): string[] {
  const built = path.join(ROOT, 'dist-server', 'main.js');
  // The app as users run it, or nothing: a TypeScript stand-in would not test the build.
  if (!fs.existsSync(built)) throw new Error(`${built} is absent: run npm run build first (npm test does)`);
  return ['--enable-source-maps', built];
}

export interface LogLine { pid: number; msg?: string; [key: string]: any }

export interface AppProcess {
  base: string;
  port: number;
  dataDir: string;
  /** The primary. */
  child: ChildProcess;
  output(): string;
  log(): LogLine[];
  /** The worker processes, from their "Server listening" lines. */
  workerPids(): number[];
  /** The pid of the process that logged the request whose URL holds `marker`, once it has. */
  servedBy(marker: string): Promise<number>;
  /** Waits until some log line passes `test`. */
  logged(test: (line: LogLine) => boolean, what: string): Promise<LogLine>;
  /** SIGTERM to the primary; resolves with its exit code once it has exited. */
  stop(): Promise<number | null>;
  /** Kills whatever is left (after a failed test) and removes the data folder. */
  cleanup(): Promise<void>;
}

/** Waits for `ok()` to hold, checking every 100 ms; after `timeoutMs` it throws, naming `what`. */
export async function until(ok: () => boolean | Promise<boolean>, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await ok())) {
    if (Date.now() > end) throw new Error(`still waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * Starts the app with `env` added (PORT, HOST, DATA_DIR, DIST_DIR, LOG_LEVEL set here) and waits until every worker
 * listens. DATA_DIR in `env` is used instead of a new folder (a restored one); cleanup removes it all the same.
 */
export async function startAppProcess(env: Record<string, string> = {}): Promise<AppProcess> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-process-'));
  const port = await freePort();
  const dist = path.join(ROOT, 'dist');
  let output = '';
  let stdout = '';
  const child = spawn(process.execPath, serverArgs(), {
    cwd: ROOT,
    env: {
      ...process.env,
      // WORKERS is the number of cores by default, 2 on the CI machine: set, so the suite is the same on any machine.
      WORKERS: '2', PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'info',
      DIST_DIR: fs.existsSync(path.join(dist, 'index.html')) ? dist : '/nonexistent',
      ...env,
      DATA_DIR: dataDir,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => { output += String(d); stdout += String(d); });
  child.stderr!.on('data', (d) => { output += String(d); });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));

  // The JSON log is on stdout (the workers share the primary's); read line by line as it grows.
  const parsed: LogLine[] = [];
  let parsedUpTo = 0;
  const log = () => {
    const end = stdout.lastIndexOf('\n') + 1;
    if (end > parsedUpTo) {
      for (const text of stdout.slice(parsedUpTo, end).split('\n')) {
        if (!text.startsWith('{')) continue;
        try { parsed.push(JSON.parse(text) as LogLine); } catch { /* a line that is not the JSON log */ }
      }
      parsedUpTo = end;
    }
    return parsed;
  };
  const workerPids = () => [...new Set(log().filter((l) => l.msg?.startsWith('Server listening at')).map((l) => l.pid))];
  const workers = Number(env.WORKERS ?? 2);
  try {
    await until(() => child.exitCode !== null || output.includes(`${workers} worker processes`), 'the server to start', STARTUP_MS);
  } catch { /* reported below with the output */ }
  if (child.exitCode !== null || workerPids().length !== workers) {
    child.kill('SIGKILL');
    throw new Error(`the server did not start:\n${output}`);
  }

  const logged = async (test: (line: LogLine) => boolean, what: string) => {
    await until(() => log().some(test), what);
    return log().find(test)!;
  };
  const app: AppProcess = {
    base: `http://127.0.0.1:${port}`, port, dataDir, child,
    output: () => output,
    log,
    workerPids,
    servedBy: async (marker) => (await logged((l) => l.msg === 'incoming request' && String(l.req?.url).includes(marker), `the request ${marker} in the log`)).pid,
    logged,
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      return exited;
    },
    cleanup: async () => {
      if (child.exitCode === null) {
        child.kill('SIGKILL');
        await exited;
      }
      for (const pid of workerPids()) if (alive(pid)) process.kill(pid, 'SIGKILL');
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return app;
}

/** Is process `pid` still there? */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Does anything accept connections on this port of 127.0.0.1? */
export function listening(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => { socket.destroy(); resolve(true); });
    socket.once('error', () => resolve(false));
  });
}

/**
 * Requests on one kept-alive connection, hence all answered by the one worker the cluster gave it to: `pid`, found
 * from a first request's log line. Each request may carry a marker in its URL, to check in the log who served it.
 */
export interface WorkerConnection {
  pid: number;
  request(method: string, url: string, headers?: Record<string, string>, body?: Buffer): Promise<Answer>;
  close(): void;
}

export async function workerConnection(app: AppProcess): Promise<WorkerConnection> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (method: string, url: string, headers: Record<string, string> = {}, body?: Buffer) => new Promise<Answer>((resolve, reject) => {
    const req = http.request(new URL(url, app.base), { method, agent, headers: { ...headers, ...(body ? { 'content-length': String(body.length) } : {}) } }, (res) => {
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
  const marker = `probe-${randomUUID()}`;
  await send('GET', `/api/auth/challenge?${marker}`);
  return { pid: await app.servedBy(marker), request: send, close: () => agent.destroy() };
}

/** A kept-alive connection to a worker other than `pid` (new connections go to the workers in turn). */
export async function connectionToOtherThan(app: AppProcess, pid: number): Promise<WorkerConnection> {
  for (let i = 0; i < 20; i++) {
    const c = await workerConnection(app);
    if (c.pid !== pid) return c;
    c.close();
  }
  throw new Error(`20 new connections all went to worker ${pid}`);
}

/** A kept-alive connection to worker `pid`. */
export async function connectionTo(app: AppProcess, pid: number): Promise<WorkerConnection> {
  for (let i = 0; i < 20; i++) {
    const c = await workerConnection(app);
    if (c.pid === pid) return c;
    c.close();
  }
  throw new Error(`20 new connections never reached worker ${pid}`);
}
