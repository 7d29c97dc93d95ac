import cluster, { type Worker } from 'node:cluster';
import type { Logger } from 'pino';
import { relayBetweenWorkers, RELAY_ENV } from './realtime/cluster-relay.js';

/** Milliseconds before replacing a worker that died, growing while workers keep dying soon after they start. */
export function restartDelayMs(quickDeaths: number): number {
  return Math.min(30_000, quickDeaths === 0 ? 0 : 500 * 2 ** (quickDeaths - 1));
}

/** A worker that dies within this long of starting counts as a quick death (a crash loop, not bad luck). */
const QUICK_DEATH_MS = 10_000;
const STOP_TIMEOUT_MS = 15_000;

/**
 * Runs `count` server processes with node:cluster; they share the listening port (the primary hands out
 * connections). The primary serves nothing: it keeps the workers running, replacing one that dies, and stops
 * them all on SIGINT/SIGTERM. If no worker ever manages to listen (port taken, bad config), it gives up
 * instead of restarting forever. It also relays the embedded realtime broker between the workers
 * (realtime/cluster-relay.ts). Resolves once every worker listens.
 */
export function superviseWorkers(count: number, log: Logger, realtime: { maxConnectionsPerSession: number }): Promise<void> {
  let stopping = false;
  let everListened = false;
  let quickDeaths = 0;
  let listening = 0;
  let ready: () => void;
  const allListening = new Promise<void>((resolve) => { ready = resolve; });
  relayBetweenWorkers({ maxConnectionsPerSession: realtime.maxConnectionsPerSession });

  const fork = () => {
    const started = Date.now();
    const worker = cluster.fork({ [RELAY_ENV]: '1' });
    let listened = false;
    worker.once('listening', () => {
      listened = true;
      everListened = true;
      if (++listening === count) ready();
    });
    worker.once('exit', (code, signal) => {
      if (stopping) return;
      if (!everListened && !listened) {
        log.error({ code, signal }, 'a server worker exited before listening; stopping');
        void stop(1);
        return;
      }
      quickDeaths = Date.now() - started < QUICK_DEATH_MS ? quickDeaths + 1 : 0;
      const delay = restartDelayMs(quickDeaths);
      log.error({ pid: worker.process.pid, code, signal, restartInMs: delay }, 'server worker died; starting another');
      setTimeout(() => { if (!stopping) fork(); }, delay);
    });
  };

  const stop = async (exitCode: number) => {
    if (stopping) return;
    stopping = true;
    const workers = Object.values(cluster.workers ?? {}).filter((w): w is Worker => !!w);
    // Each worker closes its server and database itself on SIGTERM; a stuck one is killed.
    await Promise.all(workers.map((w) => new Promise<void>((resolve) => {
      if (w.isDead()) return resolve();
      const timer = setTimeout(() => w.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
      w.once('exit', (code, signal) => {
        clearTimeout(timer);
        log.info({ workerPid: w.process.pid, code, signal }, 'server worker stopped');
        resolve();
      });
      w.process.kill('SIGTERM');
    })));
    process.exit(exitCode);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  for (let i = 0; i < count; i++) fork();
  return allListening;
}
