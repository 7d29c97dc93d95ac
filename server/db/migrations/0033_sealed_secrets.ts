import type { Kysely, Migration } from 'kysely';
import { openV1, sealV1 } from './frozen/sealed-secrets-v1.js';

const SSO_SECRETS = ['client_secret', 'im_app_secret'] as const;
const TEACHING_KEY = 'teaching_library';

/**
 * Seals the secrets an older release stored in plaintext (security/sealed-secrets.ts): the single sign-on client
 * and messaging-app secrets of every hospital and the teaching library's token. Values already sealed are left
 * as they are, so running it over a half-done upgrade is harmless. `down` opens them again. The format is the
 * frozen v1 (frozen/sealed-secrets-v1.ts); `key` is the installation's secrets key, read only when a value is
 * sealed or opened (the key file of the data directory is made on first use).
 */
export function sealedSecrets(key: () => Buffer): Migration {
  return {
    up: (db) => rewrite(db, (plain) => sealV1(key(), plain)),
    down: (db) => rewrite(db, (stored) => openV1(key(), stored)),
  };
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
