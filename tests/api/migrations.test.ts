import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connect.js';
import { migrateUpTo } from '../../server/db/migrate.js';
import { secretBox, withMigrationSecrets } from '../../server/security/sealed-secrets.js';
import { databases, emptyDatabase } from './harness.js';

/** Upgrades: a database an older release left behind keeps its rows visible after the new migrations. */
describe.each(databases)('migrations [%s]', (kind) => {
  let db: Db;
  let schema: string | undefined;
  let drop = async () => {};
  afterEach(async () => {
    await drop();
  });

  const open = async () => {
    const fresh = await emptyDatabase(kind);
    ({ schema, drop } = fresh);
    return fresh.db;
  };

  it('0005 gives slides stored without a hospital to the first hospital (they are hospital-scoped now)', async () => {
    db = await open();
    await migrateUpTo(db, '0004_slides', schema);
    const now = new Date().toISOString();
    const [first] = await db.insertInto('hospitals').values([
      { code: 'A', name: 'A', en_name: 'A', logo: null, created_at: now },
      { code: 'B', name: 'B', en_name: 'B', logo: null, created_at: now },
    ]).returning('id').execute();
    const slide = (name: string, hospital: number) => ({ hospital_id: hospital, case_id: null, name, file_path: `slides/${name}.tiff`, file_size: 1, status: 'ready' as const, has_label: 0, has_macro: 0, created_at: now, updated_at: now });
    await db.insertInto('slides').values([slide('old', 0), slide('kept', first.id + 1)]).execute();
    await migrateUpTo(db, undefined, schema);
    const rows = await db.selectFrom('slides').select(['name', 'hospital_id']).orderBy('name').execute();
    expect(rows).toEqual([{ name: 'kept', hospital_id: first.id + 1 }, { name: 'old', hospital_id: first.id }]);
  });

  it('0038 reads the case a system message is about from its link (a reader outside its directory is not shown it)', async () => {
    db = await open();
    await migrateUpTo(db, '0037_subspecialties', schema);
    const now = new Date().toISOString();
    const [hospital] = await db.insertInto('hospitals').values({ code: 'A', name: 'A', en_name: 'A', logo: null, created_at: now }).returning('id').execute();
    const [user] = await db.insertInto('users').values({ name: 'u', realname: 'U', password_hash: 'x', email: null, phone: null, status: 1, locked: 0, expires_at: null, failed_attempts: 0, login_locked_until: null, extra: '{}', created_at: now, updated_at: now } as never).returning('id').execute();
    const [kase] = await db.insertInto('cases').values({ hospital_id: hospital.id, pathology_number: 'M-1', case_type: 'routine', main_phase: 'registration', expedite_status: 0, extra: '{}', created_at: now, updated_at: now }).returning('id').execute();
    const message = (link: string | null) => ({
      batch: link ?? 'none', hospital_id: hospital.id, user_id: user.id, from_user_id: null, kind: 'system' as const, level: 1, type: 'workflow',
      title: '', content: '', message_key: null, params: null, link, read_at: null, created_at: now,
    });
    await db.insertInto('messages').values([message(`/case/${kase.id}`), message(`/diagnosis/${kase.id}`), message('/case/99999'), message('/share/view?token=x'), message(null)]).execute();
    await migrateUpTo(db, undefined, schema);
    const rows = await db.selectFrom('messages').select(['link', 'case_id']).orderBy('id').execute();
    expect(rows.map((r) => r.case_id)).toEqual([kase.id, kase.id, null, null, null]);
  });

  it('0040 leaves the operation log rows written before it without a hospital (administrators’ only)', async () => {
    db = await open();
    await migrateUpTo(db, '0039_report_documents', schema);
    const now = new Date().toISOString();
    await db.insertInto('operation_logs').values({ user_id: null, username: 'old', method: 'POST', path: '/api/x', route: '/api/x', status_code: 200, payload: null, ip: null, created_at: now } as never).execute();
    await migrateUpTo(db, undefined, schema);
    expect(await db.selectFrom('operation_logs').select(['username', 'hospital_id']).execute()).toEqual([{ username: 'old', hospital_id: null }]);
  });

  it('0033 seals the single sign-on secrets and the teaching library token an older release stored in plaintext', async () => {
    db = await open();
    await migrateUpTo(db, '0032_auth_misc', schema);
    const now = new Date().toISOString();
    const ids = (await db.insertInto('hospitals').values([
      { code: 'A', name: 'A', en_name: 'A', logo: null, created_at: now },
      { code: 'B', name: 'B', en_name: 'B', logo: null, created_at: now },
    ]).returning('id').execute()).map((r) => r.id);
    const config = (hospital: number, clientSecret: string, appSecret: string) => ({
      hospital_id: hospital, enabled: 1, label: 'SSO', issuer: 'https://id.example.org', client_id: 'dsms', client_secret: clientSecret,
      user_claim: 'preferred_username', create_unknown: 0, default_role_id: null, im_enabled: 0, im_kind: 'dingtalk', im_base_url: '',
      im_app_key: '', im_app_secret: appSecret, im_user_field: 'mobile', im_authorize_url: '', updated_at: now,
    });
    await db.insertInto('sso_configs').values([config(ids[0]!, 'plain-client-secret', 'plain-app-secret'), config(ids[1]!, 'other-secret', '')]).execute();
    await db.insertInto('settings').values({ key: 'teaching_library', value: JSON.stringify({ adapter: 'http', base_url: 'https://teach.example.org', api_token: 'plain-token' }), is_public: 0, updated_at: now }).execute();

    // With a key of this test's own, as server/setup.ts migrates with the installation's.
    const keys = { dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-keys-')) };
    await withMigrationSecrets(keys, () => migrateUpTo(db, undefined, schema));
    const box = secretBox(keys);
    const openSecret = (stored: string) => box.open(stored);
    const rows = await db.selectFrom('sso_configs').select(['hospital_id', 'client_secret', 'im_app_secret']).orderBy('hospital_id').execute();
    expect(JSON.stringify(rows)).not.toMatch(/plain-|other-secret/);
    expect(rows.map((r) => [r.client_secret.slice(0, 7), r.im_app_secret.slice(0, 7)])).toEqual([['enc:v1:', 'enc:v1:'], ['enc:v1:', '']]);
    expect(rows.map((r) => [openSecret(r.client_secret), openSecret(r.im_app_secret)])).toEqual([['plain-client-secret', 'plain-app-secret'], ['other-secret', '']]);
    const teaching = JSON.parse((await db.selectFrom('settings').select('value').where('key', '=', 'teaching_library').executeTakeFirstOrThrow()).value);
    expect(teaching).toMatchObject({ adapter: 'http', base_url: 'https://teach.example.org' });
    expect(teaching.api_token).toMatch(/^enc:v1:/);
    expect(openSecret(teaching.api_token)).toBe('plain-token');
    fs.rmSync(keys.dataDir, { recursive: true, force: true });
  });

  it('0034 gives messages written before it a type: the workflow\'s system messages "workflow", the rest "general"', async () => {
    db = await open();
    await migrateUpTo(db, '0033_sealed_secrets', schema);
    const now = new Date().toISOString();
    const [hospital] = await db.insertInto('hospitals').values({ code: 'A', name: 'A', en_name: 'A', logo: null, created_at: now }).returning('id').execute();
    const [user] = await db.insertInto('users').values({ name: 'u', realname: 'U', password_hash: 'x', created_at: now, updated_at: now } as never).returning('id').execute();
    const message = (kind: 'message' | 'notice' | 'system', title: string) => ({ batch: title, hospital_id: hospital!.id, user_id: user!.id, from_user_id: null, kind, level: 0, title, content: '', created_at: now });
    await db.insertInto('messages').values([message('system', 'assigned'), message('notice', 'drill'), message('message', 'hello')] as never).execute();
    await migrateUpTo(db, undefined, schema);
    const rows = await db.selectFrom('messages').select(['title', 'type']).orderBy('id').execute();
    expect(rows).toEqual([{ title: 'assigned', type: 'workflow' }, { title: 'drill', type: 'general' }, { title: 'hello', type: 'general' }]);
  });
});
