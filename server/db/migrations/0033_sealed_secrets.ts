import type { Kysely } from 'kysely';
import { openSecret, sealSecret } from '../../security/sealed-secrets.js';

const SSO_SECRETS = ['client_secret', 'im_app_secret'] as const;
const TEACHING_KEY = 'teaching_library';

/**
 * Seals the secrets an older release stored in plaintext (security/sealed-secrets.ts): the single sign-on client
 * and messaging-app secrets of every hospital and the teaching library's token. Values already sealed are left
 * as they are, so running it over a half-done upgrade is harmless. `down` opens them again.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await rewrite(db, sealSecret);
}

export async function down(db: Kysely<any>): Promise<void> {
  await rewrite(db, openSecret);
}

async function rewrite(db: Kysely<any>, change: (value: string) => string): Promise<void> {
  const rows = await db.selectFrom('sso_configs').select(['hospital_id', ...SSO_SECRETS]).execute();
  for (const row of rows) {
    const next = Object.fromEntries(SSO_SECRETS.map((column) => [column, change(String(row[column] ?? ''))]));
    if (SSO_SECRETS.some((column) => next[column] !== row[column])) {
      await db.updateTable('sso_configs').set(next).where('hospital_id', '=', row.hospital_id).execute();
    }
  }
  const setting = await db.selectFrom('settings').select('value').where('key', '=', TEACHING_KEY).executeTakeFirst();
  if (!setting) return;
  let value: Record<string, unknown>;
  try {
    value = JSON.parse(String(setting.value)) as Record<string, unknown>;
  } catch {
    return; // unreadable: outer/queries.ts treats it as "not set up" already
  }
  if (!value || typeof value.api_token !== 'string') return;
  const token = change(value.api_token);
  if (token === value.api_token) return;
  await db.updateTable('settings').set({ value: JSON.stringify({ ...value, api_token: token }) }).where('key', '=', TEACHING_KEY).execute();
}
