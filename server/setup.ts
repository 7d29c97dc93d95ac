/**
 * Migrations, resource indexes and the seed: what main.ts's primary has done before anything serves, run in a child
 * process of its own (main.ts starts it through server/paths.ts entryArgs: `dist-server/setup.js` compiled, this file
 * under tsx) and waited for. What they load and allocate is given back when it exits: a first start paints,
 * encodes and reads the demo slides, ~50 MiB that the C allocator would otherwise keep in the primary for as long as
 * it runs. Exits 0 when done; anything else stops the start.
 */
import path from 'node:path';
import { loadConfig } from './config.js';
import { connect } from './db/connect.js';
import { ensureResourceIndexes } from './db/indexes.js';
import { migrateToLatest } from './db/migrate.js';
import { seed } from './db/seed/index.js';
import { SCHEMAS_DIR } from './modules/schemas/repository.js';
import { loadResources } from './resources/definition.js';
import { configureSecrets } from './security/sealed-secrets.js';

const config = loadConfig();
// Migration 0033 seals old plaintext secrets with this key.
configureSecrets(config.secrets);
// Migrations and index builds may take long on a big database: they run without the statement timeout.
const db = connect({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'dsms.sqlite'), statementTimeoutMs: 0 });
try {
  await migrateToLatest(db);
  await ensureResourceIndexes(db, loadResources(path.join(SCHEMAS_DIR, 'resources')));
  await seed(db, config.demo, config.dataDir);
} finally {
  await db.destroy();
}
