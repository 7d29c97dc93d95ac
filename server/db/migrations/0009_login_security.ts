import type { Kysely } from 'kysely';

/**
 * Login security (issue 8 items 7 and 13). `auth_tokens.locked_at`: the session's screen is locked; the server
 * refuses its other calls until the password unlocks it. The index on `auth_challenges.expires_at` keeps the
 * sweep of expired challenges, run on every issue, a range scan of what it deletes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_tokens').addColumn('locked_at', 'varchar(32)').execute();
  await db.schema.createIndex('auth_challenges_expires_at').on('auth_challenges').column('expires_at').execute();
  // Spending now deletes a challenge; the rows spent before are of no use.
  await db.deleteFrom('auth_challenges').where('used_at', 'is not', null).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('auth_challenges_expires_at').ifExists().execute();
  await db.schema.alterTable('auth_tokens').dropColumn('locked_at').execute();
}
