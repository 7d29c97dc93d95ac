import cluster from 'node:cluster';
import path from 'node:path';
import { pino } from 'pino';
import { buildApp } from './app.js';
import { loadConfig, type ServerConfig } from './config.js';
import { connect, type Db } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { seed } from './db/seed/index.js';
import { ensureResourceIndexes } from './db/indexes.js';
import { loadResources } from './resources/definition.js';
import { SCHEMAS_DIR } from './modules/schemas/repository.js';
import { superviseWorkers } from './workers.js';
import { configureSecrets, secrets } from './security/sealed-secrets.js';
import { jobTypesFor } from './modules/jobs/registry.js';
import { startJobRunner } from './modules/jobs/runner.js';
import { onEvent } from './events/bus.js';
import { queueMissingConversions } from './modules/slides/conversion/sweep.js';

const config = loadConfig();
// Before the migrations (0033 seals old plaintext secrets); a malformed SECRETS_KEY stops the start here.
configureSecrets(config.secrets);
secrets();
// Migrations and index builds may take long on a big database: they run without the statement timeout.
const openDb = (statementTimeoutMs?: number) =>
  connect({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'dsms.sqlite'), statementTimeoutMs });
const where = `http://localhost:${config.port} (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`;

/** Builds the app on `db` and listens; SIGINT/SIGTERM close it (a cluster worker gets SIGTERM from the primary). */
async function serve(db: Db, cfg: ServerConfig): Promise<void> {
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
  // Migrations and the seed run once, here, before any worker opens the database.
  const setup = openDb(0);
  await migrateToLatest(setup);
  await ensureResourceIndexes(setup, loadResources(path.join(SCHEMAS_DIR, 'resources')));
  await seed(setup, config.demo, config.dataDir);
  await setup.destroy();
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
