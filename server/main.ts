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

/** Builds the app on `db` and listens; SIGINT/SIGTERM close it (a cluster worker gets SIGTERM from the primary). */
async function serve(db: Db, cfg: ServerConfig): Promise<void> {
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
  await app.listen({ port: cfg.port, host: cfg.host });
  if (cluster.isPrimary) app.log.info(`DSMS listening on ${where}`);
}

if (cluster.isPrimary) {
  // Migrations and the seed run once, before any worker opens the database, in a process of their own (setup.ts);
  // meanwhile this one loads the job runner.
  const setup = runSetup();
  setup.catch(() => {}); // awaited below; a failure must not count as unhandled while the imports load
  const { jobTypesFor } = await import('./modules/jobs/registry.js');
  const { startJobRunner } = await import('./modules/jobs/runner.js');
  const { onEvent } = await import('./events/bus.js');
  const { queueMissingConversions } = await import('./modules/slides/conversion/sweep.js');
  await setup;
  // One job runner per machine, in this process: with several workers it serves no requests, so a conversion
  // (at the lowest CPU priority besides) never sits in a tile-serving process's event loop.
  const jobDb = openDb();
  const jobLog = pino({ level: config.logLevel });
  const queued = await queueMissingConversions(jobDb, config.dataDir);
  if (queued) jobLog.info({ queued }, 'slide conversions queued at start');
  const jobs = startJobRunner(jobDb, { types: jobTypesFor(config), log: jobLog });
  process.once('SIGTERM', () => void jobs.stop());
  process.once('SIGINT', () => void jobs.stop());
  if (config.workers === 1) {
    const db = openDb();
    // This process both serves and runs jobs, on two handles: a job queued through the serving one (a bind's ingest)
    // starts at once instead of at the runner's next poll.
    onEvent(db, 'jobs.queued', () => jobs.wake());
    await serve(db, config);
  } else {
    const log = pino({ level: config.logLevel });
    await superviseWorkers(config.workers, log);
    log.info(`DSMS listening on ${where}, ${config.workers} worker processes`);
  }
} else {
  await serve(openDb(), config);
}
