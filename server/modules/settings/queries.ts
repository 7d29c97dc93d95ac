import type { Db } from '../../db/connect.js';
import { maskSecrets } from '../../http/secrets.js';
import { publicSettingKeys } from './declared.js';

/**
 * Values are JSON text; public settings are readable before login (language, logo, auto-lock). Which keys
 * are public is declared in code (declared.ts), not by the stored flag; secret-named fields are masked anyway.
 */
export async function publicSettings(db: Db): Promise<Record<string, unknown>> {
  const rows = await db.selectFrom('settings').select(['key', 'value']).where('key', 'in', publicSettingKeys()).execute();
  return JSON.parse(JSON.stringify(Object.fromEntries(rows.map((r) => [r.key, parse(r.value)])), maskSecrets));
}

export async function getSetting(db: Db, key: string) {
  return db.selectFrom('settings').select(['key', 'value', 'is_public']).where('key', '=', key).executeTakeFirst();
}

export async function putSetting(db: Db, key: string, value: unknown, isPublic?: boolean): Promise<void> {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const now = new Date().toISOString();
  const existing = await getSetting(db, key);
  if (existing) {
    await db.updateTable('settings').set({ value: text, updated_at: now, ...(isPublic === undefined ? {} : { is_public: isPublic ? 1 : 0 }) })
      .where('key', '=', key).execute();
  } else {
    await db.insertInto('settings').values({ key, value: text, is_public: isPublic ? 1 : 0, updated_at: now }).execute();
  }
}

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
