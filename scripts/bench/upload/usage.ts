import { readFileSync } from 'node:fs';

/** CPU seconds, RSS now and the sum of each process's peak RSS, of a process and its children (Linux /proc). */
export function treeUsage(root: number): { pids: number[]; cpuSeconds: number; rss: number; maxRss: number } {
  const pids = [root];
  for (let i = 0; i < pids.length; i++) {
    const children = readProc(`/proc/${pids[i]}/task/${pids[i]}/children`).trim();
    if (children) pids.push(...children.split(/\s+/).map(Number));
  }
  let ticks = 0;
  let rss = 0;
  let maxRss = 0;
  for (const pid of pids) {
    const stat = readProc(`/proc/${pid}/stat`).replace(/^.*\) /, '').split(' ');
    ticks += Number(stat[11] ?? 0) + Number(stat[12] ?? 0);
    const status = readProc(`/proc/${pid}/status`);
    rss += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
    maxRss += Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) * 1024;
  }
  return { pids, cpuSeconds: ticks / 100, rss, maxRss };
}

function readProc(file: string): string {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return '';
  }
}
