import { spawn } from 'node:child_process';
import cluster from 'node:cluster';
import path from 'node:path';
import { pino } from 'pino';
import { loadConfig, type ServerConfig } from './config.js';
import { connect, type Db } from './db/connect.js';
import { superviseWorkers } from './workers.js';
import { entryArgs } from './paths.js';
import { configureSecrets, secrets } from './security/sealed-secrets.js';

// Each process loads only what it runs (dynamic imports below; `npm run build` makes them chunks of their own): the
// primary has the setup process migrate and seed, runs the background jobs, and builds the HTTP app only when it
// serves itself (WORKERS=1); a worker builds the app and nothing else. So the primary of a cluster holds no routes,
// and the workers no job code.
const config = loadConfig();
// Before the migrations (0033 seals old plaintext secrets); a malformed SECRETS_KEY stops the start here.
configureSecrets(config.secrets);
secrets();
const openDb = () => connect({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'dsms.sqlite') });
const where = `http://localhost:${config.port} (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`;

/** Runs server/setup.ts (migrations, indexes, seed) as a child process; resolves when it succeeded. */
function runSetup(): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, entryArgs('server/setup.ts'), { stdio: 'inherit' });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`setup (migrations, seed) failed: ${signal ?? `exit code ${code}`}`))));
  });
}

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
 * Builds the app and listens; SIGINT/SIGTERM close it (a cluster worker gets SIGTERM from the primary). The app's
 * code loads first; the database is opened once `setupDone` (when given) resolves.
 */
async function serve(openDatabase: () => Db, cfg: ServerConfig, setupDone?: Promise<void>): Promise<void> {
  const { buildApp } = await import('./app.js');
  await setupDone;
  const db = openDatabase();
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
  await app.listen({ port: cfg.port, host: cfg.host });
  if (cluster.isPrimary) app.log.info(`DSMS listening on ${where}`);
}

if (cluster.isPrimary) {
  // Migrations and the seed run once, before any worker opens the database, in a process of their own (setup.ts);
  // meanwhile this one loads the job runner, and the workers (WORKERS > 1) start and load the app's code: each
  // opens the database only once the setup is done (setupFinished).
  const setup = runSetup();
  setup.catch(() => {}); // awaited below; a failure must not count as unhandled while the imports load
  const log = pino({ level: config.logLevel });
  let workersListening: Promise<void> | undefined;
  if (config.workers > 1) {
    cluster.on('message', (worker, m: unknown) => {
      if (!isSetupMessage(m, 'ask')) return;
      setup.then(() => { if (worker.isConnected()) worker.send({ dsmsSetup: 'done' } satisfies SetupMessage, () => {}); }, () => {});
    });
    workersListening = superviseWorkers(config.workers, log);
  }
  const { jobTypesFor } = await import('./modules/jobs/registry.js');
  const { startJobRunner } = await import('./modules/jobs/runner.js');
  const { onEvent } = await import('./events/bus.js');
  const { queueMissingConversions } = await import('./modules/slides/conversion/sweep.js');
  await setup;
  // One job runner per machine, in this process: with several workers it serves no requests, so a conversion
  // (at the lowest CPU priority besides) never sits in a tile-serving process's event loop.
  const jobDb = openDb();
  const queued = await queueMissingConversions(jobDb, config.dataDir);
  if (queued) log.info({ queued }, 'slide conversions queued at start');
  const jobs = startJobRunner(jobDb, { types: jobTypesFor(config), log });
  process.once('SIGTERM', () => void jobs.stop());
  process.once('SIGINT', () => void jobs.stop());
  if (workersListening) {
    await workersListening;
    log.info(`DSMS listening on ${where}, ${config.workers} worker processes`);
  } else {
    const db = openDb();
    // This process both serves and runs jobs, on two handles: a job queued through the serving one (a bind's ingest)
    // starts at once instead of at the runner's next poll.
    onEvent(db, 'jobs.queued', () => jobs.wake());
    await serve(() => db, config);
  }
} else {
  await serve(openDb, config, setupFinished());
}
