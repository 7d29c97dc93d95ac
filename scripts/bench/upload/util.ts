import fs from 'node:fs/promises';
import path from 'node:path';

export function arg(name: string): string | undefined {
  const i = process.argv.indexOf(name);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

export async function timed(task: () => Promise<void>): Promise<number> {
  const t0 = process.hrtime.bigint();
  await task();
  return Number(process.hrtime.bigint() - t0) / 1e9;
}

export async function emptyDir(dir: string): Promise<void> {
  for (const name of await fs.readdir(dir)) await fs.rm(path.join(dir, name), { recursive: true, force: true });
}

export const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

export const mbps = (bytes: number, seconds: number) => (bytes / 1e6 / seconds).toFixed(0);

export const mib = (bytes: number) => (bytes / 1024 / 1024).toFixed(0);
