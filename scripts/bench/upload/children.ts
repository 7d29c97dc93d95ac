import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FromChild, Kind, ToChild } from './servers.js';

/** The parent's side of the comparison servers: start one as a child of the benchmark, ask its usage, stop it. */

/** The entry point the children run (`upload.ts --serve <kind> <dir>`). */
const ENTRY = fileURLToPath(new URL('../upload.ts', import.meta.url));

export async function start(kind: Kind, dir: string, children: ChildProcess[], nodeArgs: string[] = []): Promise<{ child: ChildProcess; port: number }> {
  await fs.mkdir(dir, { recursive: true });
  const child = fork(ENTRY, ['--serve', kind, dir], { execArgv: ['--import', 'tsx', ...nodeArgs], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.push(child);
  const ready = await new Promise<FromChild>((resolve, reject) => {
    child.once('message', (m) => resolve(m as FromChild));
    child.once('exit', (code) => reject(new Error(`${kind} server exited with ${code}`)));
  });
  if (ready.type !== 'ready') throw new Error(`${kind} server did not start`);
  return { child, port: ready.port };
}

/** Disconnecting lets the child exit on its own, so a CPU profile gets written; a stuck child is killed. */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  // Ours (spawned, no IPC channel) stops on SIGTERM as under a service manager; the others when disconnected.
  if (child.connected) child.disconnect();
  else child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill(), 5000);
  await exited;
  clearTimeout(timer);
}

export function rssOf(child: ChildProcess): Promise<{ rss: number; maxRss: number; cpuSeconds: number }> {
  return new Promise((resolve) => {
    child.once('message', (m) => resolve(m as { rss: number; maxRss: number; cpuSeconds: number }));
    child.send({ type: 'rss' } satisfies ToChild);
  });
}
