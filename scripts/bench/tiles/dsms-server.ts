/**
 * Our server as the benchmark runs it: the real app (buildApp, SQLite file, logger off) listening on
 * loopback, optionally as several node:cluster workers sharing the port. The primary migrates, seeds, binds the
 * slide file under `DIR/slides/` to the administrator's hospital (slides are served by id only) and issues a bearer
 * token, then prints `READY <token> <slide id>`.
 *
 *   node --import tsx scripts/bench/tiles/dsms-server.ts --data DIR --port 18001 [--workers 2] [--key slides/x.tiff]
 *
 * With STORAGE_URL (and S3_*) in the environment the slide is the object `--key` in that storage (scripts/bench/s3-tiles.ts).
 */
import cluster from 'node:cluster';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp } from '../../../server/app.js';
import { loadConfig } from '../../../server/config.js';
import { appStorage } from '../../../server/storage/app-storage.js';
import { connect } from '../../../server/db/connect.js';
import { migrateToLatest } from '../../../server/db/migrate.js';
import { seed } from '../../../server/db/seed/index.js';
import { issueToken } from '../../../server/modules/auth/tokens.js';
import { ingestNow } from '../../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../../server/modules/slides/register.js';

const { values } = parseArgs({ options: { data: { type: 'string' }, port: { type: 'string' }, workers: { type: 'string', default: '1' }, key: { type: 'string' } } });
// Only the storage settings and TILE_CACHE_MB (default 256) come from the environment; the rest is this script's, as before.
const { storage: storageConfig, blockCache, tileCacheMb } = loadConfig(process.env);
const dataDir = path.resolve(values.data!);
const port = Number(values.port);
const workers = Number(values.workers);
const sqliteFile = path.join(dataDir, 'dsms.sqlite');

async function serve() {
  const db = connect({ sqliteFile });
  const app = await buildApp({ db, config: { tokenTtlSeconds: 3600, distDir: '/nonexistent', logLevel: 'warn', dataDir, tileCacheMb, storage: storageConfig, blockCache }, logger: false });
  await app.listen({ port, host: '127.0.0.1' });
  const stop = async () => { await app.close(); await db.destroy(); process.exit(0); };
  process.on('SIGTERM', stop);
  process.on('disconnect', stop);
}

if (cluster.isPrimary) {
  // A fresh database each run: one left by an older checkout may hold migrations this one does not know.
  for (const suffix of ['', '-wal', '-shm']) fs.rmSync(sqliteFile + suffix, { force: true });
  const db = connect({ sqliteFile });
  await migrateToLatest(db);
  await seed(db, true);
  const admin = await db.selectFrom('users').select('id').where('name', '=', 'admin').executeTakeFirstOrThrow();
  const token = await issueToken(db, admin.id, null, 3600);
  // The one file the runner linked under slides/, bound in place and read by its ingest job before anything serves it.
  const { storage } = appStorage({ dataDir, storage: storageConfig, blockCache });
  const file = values.key ? path.join(dataDir, values.key) : fs.readdirSync(path.join(dataDir, 'slides')).filter((f) => !f.startsWith('.') && f !== 'thumbs').map((f) => path.join(dataDir, 'slides', f))[0];
  if (!file) throw new Error(`no slide file under ${path.join(dataDir, 'slides')}`);
  const hospital = await db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', admin.id).orderBy('hospital_id').executeTakeFirstOrThrow();
  const slideId = await registerSlide(db, dataDir, file, { name: path.basename(file), hospital_id: hospital.hospital_id, case_id: null, uploaded_by: admin.id }, storage);
  await ingestNow(db, dataDir, slideId, { storage });
  await db.destroy();
  if (workers <= 1) {
    await serve();
  } else {
    let listening = 0;
    await new Promise<void>((resolve) => {
      for (let i = 0; i < workers; i++) cluster.fork().on('listening', () => { if (++listening === workers) resolve(); });
    });
    process.on('SIGTERM', () => {
      for (const w of Object.values(cluster.workers ?? {})) w?.kill('SIGTERM');
      process.exit(0);
    });
  }
  console.log(`READY ${token} ${slideId}`);
} else {
  await serve();
}
