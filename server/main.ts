import cluster from 'node:cluster';
import path from 'node:path';
import { loadConfig, type ServerConfig } from './config.js';
import type { Db } from './db/connect.js';
import { runEntry } from './paths.js';
import { secretBox } from './security/sealed-secrets.js';

// Each process loads only what it runs (dynamic imports below; `npm run build` makes them chunks of their own): the
// primary has the setup process migrate and seed, runs the background jobs, and builds the HTTP app only when it
// serves itself (WORKERS=1); a worker builds the app and nothing else. So the primary of a cluster holds no routes,
// and the workers no job code.
const config = loadConfig();
// A malformed SECRETS_KEY stops the start here, and a missing key file is made once, before the setup process (whose
// migration 0033 seals old plaintext secrets) and the workers (each app opens its own box: buildApp) read it.
secretBox(config.secrets);
// The primary starts the setup process (migrations, seed: setup.ts) before it loads anything more, since everything
// else waits for it; this process loads the job runner meanwhile, and the workers build their app (see below).
const setup = cluster.isPrimary ? runEntry('server/setup.ts') : undefined;
setup?.catch(() => {}); // awaited below; a failure must not count as unhandled while the imports load
const { connect } = await import('./db/connect.js');
const { pino } = await import('pino');
const openDb = (openAfter?: Promise<void>) => connect({
  databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'dsms.sqlite'), statementTimeoutMs: config.dbStatementTimeoutMs, openAfter,
});
const where = `http://localhost:${config.port} (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`;

/** Between the primary and a worker started while the setup process runs (setupFinished). */
type SetupMessage = { dsmsSetup: 'ask' | 'done' };
const isSetupMessage = (m: unknown, step: SetupMessage['dsmsSetup']) => (m as SetupMessage | null)?.dsmsSetup === step;

/**
 * A worker's wait for the setup process: it asks the primary, which answers once the setup has succeeded (at once
 * to a worker started later, after a crash). Should the setup fail, the primary exits and so does this worker.
 */
function setupFinished(): Promise<void> {
  return new Promise((resolve) => {
    const onMessage = (m: unknown) => {
      if (!isSetupMessage(m, 'done')) return;
      process.off('message', onMessage);
      resolve();
    };
    process.on('message', onMessage);
    process.send!({ dsmsSetup: 'ask' } satisfies SetupMessage);
  });
}

/**
 * Builds the app on `db` and listens once `setupDone` (when given) resolves: a worker builds it while the setup
 * process still runs, on a `db` that reaches the database only after the setup (building the app asks it nothing).
 * SIGINT/SIGTERM close it (a cluster worker gets SIGTERM from the primary).
 */
async function serve(db: Db, cfg: ServerConfig, setupDone?: Promise<void>): Promise<void> {
  const { buildApp } = await import('./app.js');
  const app = await buildApp({ db, config: cfg });
  let closing: Promise<void> | undefined;
  const shutdown = () => {
    closing ??= (async () => {
      await app.close();
      await db.destroy();
      process.exit(0);
    })();
  };
  process.on('SIGINT', shutdown);
  process.on('SIGTERM', shutdown);
  await setupDone;
  await app.listen({ port: cfg.port, host: cfg.host });
  if (cluster.isPrimary) app.log.info(`DSMS listening on ${where}`);
}

if (setup) {
  // Migrations and the seed run once, before any worker opens the database. The workers (WORKERS > 1) start now and
  // build their app: each opens the database and listens only once the setup is done (setupFinished).
  const log = pino({ level: config.logLevel });
  let workersListening: Promise<void> | undefined;
  if (config.workers > 1) {
    const { superviseWorkers } = await import('./workers.js');
    cluster.on('message', (worker, m: unknown) => {
      if (!isSetupMessage(m, 'ask')) return;
      setup.then(() => { if (worker.isConnected()) worker.send({ dsmsSetup: 'done' } satisfies SetupMessage, () => {}); }, () => {});
    });
    workersListening = superviseWorkers(config.workers, log, config.realtime);
  }
  const { installationJobTypes } = await import('./modules/job-types.js');
  const { startJobRunner } = await import('./modules/jobs/runner.js');
  const { emitEvent, onEvent } = await import('./events/bus.js');
  const { queueMissingConversions } = await import('./modules/slides/conversion/sweep.js');
  await setup;
  // One job runner per machine, in this process: with several workers it serves no requests, so a conversion
  // (at the lowest CPU priority besides) never sits in a tile-serving process's event loop, and each scheduled job
  // (issuing reports whose hesitation period is over, sweeps) runs in one process, not in every worker.
  const jobDb = openDb();
  const queued = await queueMissingConversions(jobDb, config.dataDir);
  if (queued) log.info({ queued }, 'slide conversions queued at start');
  // The HIS's HL7 messages (HL7_MLLP_PORT, off by default) are taken here, in one process of the installation.
  const { listenPort } = config.hl7;
  if (listenPort !== undefined) {
    const { startHl7Listener } = await import('./modules/hl7/start.js');
    const hl7 = await startHl7Listener(jobDb, { ...config.hl7, listenPort }, log);
    process.once('SIGTERM', () => void hl7.close());
    process.once('SIGINT', () => void hl7.close());
  }
  const startJobs = () => {
    const runner = startJobRunner(jobDb, { types: installationJobTypes(config), log, queues: config.jobQueues });
    process.once('SIGTERM', () => void runner.stop());
    process.once('SIGINT', () => void runner.stop());
    return runner;
  };
  if (workersListening) {
    // The jobs' states and progress, and the scanners the sweep found silent, reach the browsers from here, through
    // the workers' brokers (or RabbitMQ).
    const { pushFromPrimary } = await import('./realtime/primary-push.js');
    await pushFromPrimary(jobDb, config.realtime, log);
    // Jobs wait for the workers to serve: a first start's focus checks would take the CPU they need to answer first.
    await workersListening;
    startJobs();
    log.info(`DSMS listening on ${where}, ${config.workers} worker processes`);
  } else {
    const jobs = startJobs();
    const db = openDb();
    // This process both serves and runs jobs, on two handles: a job queued through the serving one (a bind's ingest)
    // starts at once instead of at the runner's next poll.
    onEvent(db, 'jobs.queued', () => jobs.wake());
    // … and what the runner's jobs announce (their states, a scanner the sweep found silent) reaches the app's
    // realtime pushes (server/realtime/push.ts).
    onEvent(jobDb, 'jobs.state', (e) => emitEvent(db, 'jobs.state', e));
    onEvent(jobDb, 'scanner.status', (e) => emitEvent(db, 'scanner.status', e));
    await serve(db, config);
  }
} else {
  const setupDone = setupFinished();
  await serve(openDb(setupDone), config, setupDone);
}
