import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** A server process the benchmark started: its own process group, so stopping it stops its workers too. */
export interface Started {
  name: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

export function which(cmd: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

export function start(name: string, cmd: string, args: string[], options: { env?: NodeJS.ProcessEnv; log: string; cwd?: string }): Started {
  const log = fs.openSync(options.log, 'a');
  const child = spawn(cmd, args, { env: { ...process.env, ...options.env }, cwd: options.cwd, detached: true, stdio: ['ignore', 'pipe', log] });
  child.stdout!.on('data', (d) => fs.appendFileSync(options.log, d));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    name,
    child,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      try { process.kill(-child.pid!, 'SIGTERM'); } catch { /* already gone */ }
      const timeout = new Promise<'timeout'>((r) => setTimeout(() => r('timeout'), 5000).unref());
      if ((await Promise.race([exited, timeout])) === 'timeout') {
        try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* already gone */ }
        await exited;
      }
      fs.closeSync(log);
    },
  };
}

/** Polls until `url` answers 200 (or `deadlineMs` passes). */
export async function waitForHttp(url: string, deadlineMs = 60_000): Promise<void> {
  const until = Date.now() + deadlineMs;
  let last = '';
  while (Date.now() < until) {
    try {
      const res = await fetch(url);
      if (res.status === 200) { await res.arrayBuffer(); return; }
      last = `HTTP ${res.status}`;
    } catch (err) {
      last = (err as Error).message;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} not ready: ${last}`);
}
