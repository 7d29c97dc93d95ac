/**
 * Migrations, resource indexes and the seed: what main.ts's primary has done before anything serves, run in a child
 * process of its own (main.ts starts it through server/paths.ts runEntry: `dist-server/setup.js` compiled, this file
 * under tsx) and waited for. What they load and allocate is given back when it exits: a first start paints,
 * encodes and reads the demo slides, ~50 MiB that the C allocator would otherwise keep in the primary for as long as
 * it runs. Exits 0 when done; anything else stops the start.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from './config.js';
import { writeDemoSlidesAhead } from './db/seed/demo-slides-ahead.js';
import { withMigrationSecrets } from './security/sealed-secrets.js';

const config = loadConfig();
const sqliteFile = path.join(config.dataDir, 'dsms.sqlite');
const firstStart = !config.databaseUrl && !fs.existsSync(sqliteFile);
// A first start of a demo: its slides are written (copied, or painted by another process) while the database is built.
if (config.demo && firstStart) writeDemoSlidesAhead(config.dataDir);

const { connect } = await import('./db/connect.js');
const fresh = await import('./db/fresh-database.js');
const { migrateToLatest } = await import('./db/migrate.js');
const { ensureResourceIndexes } = await import('./db/indexes.js');
const { seed } = await import('./db/seed/index.js');
const { ensureChallengeKey } = await import('./modules/auth/challenge.js');
const { appStorage } = await import('./storage/app-storage.js');
const { SCHEMAS_DIR } = await import('./modules/schemas/repository.js');
const { loadResources } = await import('./resources/definition.js');
const { ContractStore } = await import('./modules/schemas/store.js');
const { withSetupLock } = await import('./db/setup-lock.js');
const { seedDemoDepartment } = await import('./db/seed/demo-department.js');

// Migrations and index builds may take long on a big database: they run without the statement timeout.
// A first start builds the SQLite file under another name, renamed into place when complete (db/fresh-database.ts).
const building = firstStart ? fresh.startBuilding(sqliteFile) : sqliteFile;
const db = connect({ databaseUrl: config.databaseUrl, sqliteFile: building, statementTimeoutMs: 0, unpublished: firstStart });
try {
  await withSetupLock(config.databaseUrl, async () => {
    // Migration 0033 seals old plaintext secrets with the installation's key.
    await withMigrationSecrets(config.secrets, () => migrateToLatest(db));
    const key = ensureChallengeKey(db);
    const resources = loadResources(path.join(SCHEMAS_DIR, 'resources'));
    await ensureResourceIndexes(db, resources);
    // The fields hospitals added (kept in extra), each with its expression index; a save builds a new field's at once.
    await new ContractStore(db, resources, undefined).indexAllAdded();
    const { storage } = appStorage(config);
    await seed(db, config.demo, config.dataDir, storage);
    // The demo's living department (three months of work) on top of the base demo, once; the tests' databases keep the base only.
    // Its reports' documents are frozen by a queued job once the server runs (seed/department-freeze-job.ts).
    if (config.demo) await seedDemoDepartment(db, { dataDir: config.dataDir });
    await key;
  });
} finally {
  await db.destroy();
}
if (firstStart) fresh.publish(sqliteFile);
