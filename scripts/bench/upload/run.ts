import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startApp } from './app.js';
import { rssOf, start, stop } from './children.js';
import { rawWrite, retriedChunks, uploadOurs, uploadPlain, uploadTus } from './clients.js';
import { CHUNK, generate, IN_FLIGHT, verifyStored } from './source.js';
import { treeUsage } from './usage.js';
import { arg, emptyDir, mbps, median, mib, timed } from './util.js';

/** The parent: makes the source, starts the servers, times each method `--runs` times and prints the table. */

export async function main(): Promise<void> {
  const sizeMb = Number(arg('--size-mb') ?? 1024);
  const runs = Number(arg('--runs') ?? 3);
  const size = sizeMb * 1024 * 1024;
  const work = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-bench-upload-'));
  const children: ChildProcess[] = [];
  try {
    const source = path.join(work, 'source.bin');
    console.log(`generating ${sizeMb} MiB in ${work} …`);
    const hashes = await generate(source, size);

    const profile = arg('--profile');
    const ours = await startApp(path.join(work, 'ours'), children, profile ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(profile)] : []);
    const tus = await start('tus', path.join(work, 'tus'), children);
    const plain = await start('plain', path.join(work, 'plain'), children);
    const idleRss = treeUsage(ours.child.pid!).rss;

    // One small untimed round each, so start-up work (JIT, our assembly worker's first load) is not timed.
    const warm = path.join(work, 'warm.bin');
    const warmSize = 8 * CHUNK;
    const warmHashes = await generate(warm, warmSize);
    await uploadOurs(warm, warmSize, warmHashes, ours.port, ours.token);
    await uploadTus(warm, warmSize, tus.port);
    await uploadPlain(warm, warmSize, plain.port);
    await fs.rm(path.join(work, 'ours', 'uploads'), { recursive: true, force: true });
    await emptyDir(path.join(work, 'tus'));
    await emptyDir(path.join(work, 'plain'));

    type Method = 'ours' | 'ours1' | 'tus' | 'plain' | 'raw';
    const servers: Partial<Record<Method, ChildProcess>> = { ours: ours.child, ours1: ours.child, tus: tus.child, plain: plain.child };
    /** CPU seconds so far of a server: all processes of ours (the cluster), the one process of the others. */
    const serverCpu = async (method: Method) => (method === 'ours' || method === 'ours1' ? treeUsage(ours.child.pid!).cpuSeconds : servers[method] ? (await rssOf(servers[method]!)).cpuSeconds : 0);
    const methods: Method[] = ['ours', 'ours1', 'tus', 'plain', 'raw'];
    const times = Object.fromEntries(methods.map((m) => [m, [] as number[]])) as Record<Method, number[]>;
    const cpu = Object.fromEntries(methods.map((m) => [m, { server: 0, client: 0 }])) as Record<Method, { server: number; client: number }>;
    /** Wall time of `task`, and the CPU time its server process and this client process spent meanwhile. */
    const measure = async (method: Method, task: () => Promise<void>) => {
      const server = servers[method];
      const serverBefore = await serverCpu(method);
      const clientBefore = process.cpuUsage();
      times[method].push(await timed(task));
      const client = process.cpuUsage(clientBefore);
      cpu[method].client += (client.user + client.system) / 1e6;
      if (server) cpu[method].server += (await serverCpu(method)) - serverBefore;
    };

    const loadBefore = os.loadavg()[0]!;
    for (let run = 1; run <= runs; run++) {
      let stored = '';
      await measure('ours', async () => {
        stored = await uploadOurs(source, size, hashes, ours.port, ours.token, IN_FLIGHT, `bench-${run}-4.kfb`);
      });
      if (run === 1) await verifyStored(path.join(work, 'ours', stored), size, hashes.total);
      await fs.rm(path.join(work, 'ours', 'uploads'), { recursive: true, force: true });
      await measure('ours1', async () => {
        stored = await uploadOurs(source, size, hashes, ours.port, ours.token, 1, `bench-${run}-1.kfb`);
      });
      if (run === 1) await verifyStored(path.join(work, 'ours', stored), size, hashes.total);
      await fs.rm(path.join(work, 'ours', 'uploads'), { recursive: true, force: true });
      await measure('tus', () => uploadTus(source, size, tus.port));
      await emptyDir(path.join(work, 'tus'));
      await measure('plain', () => uploadPlain(source, size, plain.port));
      await emptyDir(path.join(work, 'plain'));
      const rawTarget = path.join(work, 'raw.bin');
      await measure('raw', () => rawWrite(source, rawTarget, size));
      await fs.rm(rawTarget, { force: true });
      console.log(`run ${run}/${runs}: ours ${mbps(size, times.ours.at(-1)!)}  ours1 ${mbps(size, times.ours1.at(-1)!)}  tus ${mbps(size, times.tus.at(-1)!)}  plain ${mbps(size, times.plain.at(-1)!)}  raw ${mbps(size, times.raw.at(-1)!)} MB/s`);
    }
    const peak = treeUsage(ours.child.pid!);

    const rate = (m: Method) => size / 1e6 / median(times[m]);
    const perGib = (seconds: number) => (seconds / runs / (size / 1024 ** 3)).toFixed(2);
    const rows: [Method, string][] = [
      ['ours', `(a) ours (npm start, ${ours.workers} workers): /api/upload/large, 2 MiB, MD5s, 4 in flight`],
      ['ours1', '(a1) ours, the same with 1 in flight'],
      ['tus', '(b) @tus/server + @tus/file-store, 2 MiB PATCH, sequential'],
      ['plain', '(c) plain HTTP PUT, 2 MiB, 4 in flight, streamed to disk'],
      ['raw', '(d) raw disk write, 2 MiB writes'],
    ];
    console.log(`\nupload of ${sizeMb} MiB on loopback, median of ${runs} run(s), MB = 10^6 bytes; CPU = seconds per GiB, all threads`);
    console.log(`${'method'.padEnd(78)} MB/s  server CPU  client CPU`);
    for (const [m, name] of rows) {
      const server = servers[m] ? perGib(cpu[m].server) : '-';
      console.log(`${name.padEnd(78)} ${rate(m).toFixed(0).padStart(4)}  ${server.padStart(10)}  ${perGib(cpu[m].client).padStart(10)}`);
    }
    console.log(`\nours / tus        ${(rate('ours') / rate('tus')).toFixed(2)}×   (target ≥ 1.3)`);
    console.log(`ours 1 / tus      ${(rate('ours1') / rate('tus')).toFixed(2)}×   (target ≥ 1)`);
    console.log(`our server CPU    ${perGib(cpu.ours.server)} s/GiB with 4 in flight, ${perGib(cpu.ours1.server)} with 1   (target ≤ 7)`);
    console.log(`ours / plain PUT  ${(rate('ours') / rate('plain')).toFixed(2)}×   (target ≥ 0.8)`);
    console.log(`chunks of ours retried after a 5xx: ${retriedChunks}`);
    console.log(`our server RSS (all processes): ${mib(idleRss)} MiB idle after start, ${mib(peak.rss)} MiB after the runs, ${mib(peak.maxRss)} MiB sum of each process's peak`);
    console.log(`load average (1 min) on ${os.cpus().length} CPUs: ${loadBefore.toFixed(1)} before, ${os.loadavg()[0]!.toFixed(1)} after`);
  } finally {
    await Promise.all(children.map(stop));
    await fs.rm(work, { recursive: true, force: true });
  }
}
