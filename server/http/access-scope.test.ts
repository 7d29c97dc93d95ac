import { sql } from 'kysely';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connect, type Db } from '../db/connect.js';
import { accessScopeOf, registerAccessScope, scopedDb } from './access-scope.js';
import type { SessionUser } from './types.js';

const user = (over: Partial<SessionUser> = {}): SessionUser => ({
  id: 7, name: 'reader', realname: 'Reader', identification: ['primary_doctor'], permissions: ['case_view'],
  hospitalIds: [1, 2], subspecialtyIds: [5], hospitalId: 1, tokenHash: 'x', ...over,
});

describe('the access scope of a request', () => {
  it('holds every hospital of the user, their directories and their permissions', () => {
    const scope = accessScopeOf(user());
    expect(scope).toMatchObject({ userId: 7, hospitals: [1, 2], directories: [5] });
    expect(scope.may('case_view')).toBe(true);
    expect(scope.may('system_setting')).toBe(false);
  });

  it('leaves an administrator, and a user of no directories, every directory', () => {
    expect(accessScopeOf(user({ identification: ['admin'] }))).toMatchObject({ directories: undefined });
    expect(accessScopeOf(user({ subspecialtyIds: [] }))).toMatchObject({ directories: undefined });
    expect(accessScopeOf(user({ identification: ['admin'] })).may('system_setting')).toBe(true);
  });

  describe('on the scoped handle', () => {
    let raw: Db;
    let db: Db;
    const app = Fastify();
    beforeAll(async () => {
      raw = connect({ sqliteFile: ':memory:' });
      await sql.raw('create table cases (id integer primary key, hospital_id integer not null, subspecialty_id integer, pathology_number text)').execute(raw);
      await sql.raw(`insert into cases values (1, 1, 5, 'A'), (2, 1, 6, 'B'), (3, 3, null, 'C')`).execute(raw);
      db = scopedDb(raw);
      app.decorateRequest('auth', null);
      app.addHook('onRequest', async (request) => { if (request.headers.authorization) request.auth = user(); });
      registerAccessScope(app);
      app.get('/numbers', async (request) => ({
        scope: request.scope?.userId ?? null,
        numbers: (await db.selectFrom('cases').select('pathology_number').orderBy('id').execute()).map((r) => r.pathology_number),
      }));
      await app.ready();
    });
    afterAll(async () => { await app.close(); await raw.destroy(); });

    it('a signed-in request reaches its hospitals and directories, in the handler and what it awaits', async () => {
      const res = await app.inject({ method: 'GET', url: '/numbers', headers: { authorization: 'Bearer t' } });
      expect(res.json()).toEqual({ scope: 7, numbers: ['A'] });
    });

    it('a signed-out request, and code outside any request, reach no row', async () => {
      expect((await app.inject({ method: 'GET', url: '/numbers' })).json()).toEqual({ scope: null, numbers: [] });
      expect(await db.selectFrom('cases').selectAll().execute()).toEqual([]);
      expect(await raw.selectFrom('cases').selectAll().execute()).toHaveLength(3);
    });
  });
});
