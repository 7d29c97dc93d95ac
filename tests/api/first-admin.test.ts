import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFirstAdmin } from '../../server/admin/first-admin.js';
import { migrateToLatest } from '../../server/db/migrate.js';
import { seed } from '../../server/db/seed/index.js';
import { testApp, call, databases, emptyDatabase, loginAs } from './harness.js';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../server/db/connect.js';

/**
 * An installation started with DSMS_DEMO=0 has roles and menus but no account: `npm run create-admin` makes the first
 * hospital and its administrator (docs/deploy.md), who can then sign in and administer that hospital.
 */
describe.each(databases)('the first administrator of an installation without demo data [%s]', (kind) => {
  let db: Db;
  let drop: () => Promise<void>;
  let app: FastifyInstance;
  beforeAll(async () => {
    let schema: string | undefined;
    ({ db, drop, schema } = await emptyDatabase(kind));
    await migrateToLatest(db, schema);
    await seed(db, false);
    app = await testApp(db);
    await app.ready();
  });
  afterAll(async () => { await app?.close(); await drop?.(); });

  it('starts with nobody to sign in as', async () => {
    expect(await db.selectFrom('users').select('id').execute()).toEqual([]);
    const refused = await loginAs(app, 'admin', 'dsms-admin');
    expect(refused.statusCode).toBe(422);
    expect(refused.json().code).not.toBe(0);
  });

  it('makes the hospital and an administrator who signs in and sees the administration pages', async () => {
    const made = await createFirstAdmin(db, { hospitalCode: 'PH01', hospitalName: '市第一人民医院', hospitalEnName: 'First People’s Hospital', user: 'chief', password: 'correct horse battery' });
    expect(made.hospitalCreated).toBe(true);
    const login = await loginAs(app, 'chief', 'correct horse battery');
    expect(login.statusCode).toBe(200);
    const token = login.json().data.access_token as string;
    const permission = await call(app, 'GET', '/api/system_management/users/permission', { token });
    expect(permission.statusCode).toBe(200);
    expect(permission.json().data).toMatchObject({ identification: ['admin'], permission: expect.arrayContaining(['system_user', 'system_role', 'system_setting']) });
    const hospitals = await db.selectFrom('user_hospitals').innerJoin('hospitals', 'hospitals.id', 'user_hospitals.hospital_id')
      .select(['hospitals.code', 'hospitals.name', 'hospitals.en_name']).where('user_id', '=', made.userId).execute();
    expect(hospitals).toEqual([{ code: 'PH01', name: '市第一人民医院', en_name: 'First People’s Hospital' }]);
  });

  it('joins a hospital of that code rather than making a second, and refuses a name taken or a short password', async () => {
    const second = await createFirstAdmin(db, { hospitalCode: 'PH01', hospitalName: 'ignored', user: 'deputy', password: 'another long one' });
    expect(second.hospitalCreated).toBe(false);
    expect(await db.selectFrom('hospitals').select('id').where('code', '=', 'PH01').execute()).toHaveLength(1);
    await expect(createFirstAdmin(db, { hospitalCode: 'PH01', hospitalName: 'x', user: 'chief', password: 'correct horse battery' })).rejects.toThrow(/exists already/);
    await expect(createFirstAdmin(db, { hospitalCode: 'PH02', hospitalName: 'x', user: 'short', password: 'short' })).rejects.toThrow(/10–4096/);
    await expect(createFirstAdmin(db, { hospitalCode: 'bad code!', hospitalName: 'x', user: 'x', password: 'long enough pw' })).rejects.toThrow(/hospital code/);
    // A refusal changes nothing.
    expect(await db.selectFrom('hospitals').select('code').where('code', '=', 'PH02').execute()).toEqual([]);
    expect(await db.selectFrom('users').select('name').orderBy('name').execute()).toEqual([{ name: 'chief' }, { name: 'deputy' }]);
  });
});
