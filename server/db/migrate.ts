import { Migrator, type MigrationProvider } from 'kysely';
import { migrationSecretsKey } from '../security/sealed-secrets.js';
import type { Db } from './connect.js';
import { migrationsFor } from './migrations/index.js';

/** The registry (migrations/index.ts), with the secrets key of the withMigrationSecrets run, read only if a migration asks for it. */
const provider: MigrationProvider = { getMigrations: async () => migrationsFor({ secretsKey: migrationSecretsKey }) };

/**
 * `schema`: the PostgreSQL schema the database lives in, when not the default. Kysely looks for its
 * migration tables across every schema otherwise, and another schema's tables would fool it.
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<void> {
  return migrateUpTo(db, undefined, schema);
}

/** Up to and including `target` (all when undefined): lets a test stand where an older release left a database. */
export async function migrateUpTo(db: Db, target: string | undefined, schema?: string): Promise<void> {
  const migrator = new Migrator({ db, provider, ...(schema ? { migrationTableSchema: schema } : {}) });
  const { error, results } = await (target ? migrator.migrateTo(target) : migrator.migrateToLatest());
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`);
  }
}
