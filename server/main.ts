import path from 'node:path';
import { buildApp } from './app.js';
import { loadConfig } from './config.js';
import { connect } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import { seed } from './db/seed/demo.js';
import { ensureResourceIndexes } from './db/indexes.js';
import { loadResources } from './resources/definition.js';
import { SCHEMAS_DIR } from './modules/schemas/repository.js';

const config = loadConfig();
const db = connect({ databaseUrl: config.databaseUrl, sqliteFile: path.join(config.dataDir, 'dsms.sqlite') });
await migrateToLatest(db);
await ensureResourceIndexes(db, loadResources(path.join(SCHEMAS_DIR, 'resources')));
await seed(db, config.demo, config.dataDir);
const app = await buildApp({ db, config });

const shutdown = async () => {
  await app.close();
  await db.destroy();
  process.exit(0);
};
process.on('SIGINT', shutdown);
process.on('SIGTERM', shutdown);

await app.listen({ port: config.port, host: config.host });
app.log.info(`DSMS listening on http://localhost:${config.port} (${config.databaseUrl ? 'PostgreSQL' : 'SQLite'})`);
