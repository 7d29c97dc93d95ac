import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hashToken } from '../../server/modules/auth/tokens.js';
import { hospitalsOf, mergePermissions, rolesOf, sessionFromToken } from '../../server/modules/users/queries.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Issue 9: the guard resolves a session in one statement (token, user, roles, hospitals), with the same answer
 * the token + roles + hospitals lookups gave, the security issue's refusals included.
 */
describe.each(databases)('engine: one-statement session lookup [%s]', (kind) => {
  let h: Harness;
  const statements: string[] = [];
  let capturing = false;

  beforeAll(async () => {
    h = await startApp(kind, { log: (e: LogEvent) => { if (capturing && e.level === 'query') statements.push(e.query.sql); } });
  });
  afterAll(async () => { await h.close(); });

  /** What the session held when it was read by three lookups: roles, hospitals and the token's row. */
  const expected = async (name: string, token: string) => {
    const id = await userId(h.db, name);
    const [roles, hospitals] = await Promise.all([rolesOf(h.db, id), hospitalsOf(h.db, id)]);
    const row = await h.db.selectFrom('auth_tokens').select(['hospital_id', 'locked_at']).where('token_hash', '=', hashToken(token)).executeTakeFirstOrThrow();
    const hospitalIds = hospitals.map((x) => x.id);
    return {
      id, name, identification: roles.map((r) => r.identification), permissions: mergePermissions(roles), hospitalIds,
      hospitalId: row.hospital_id !== null && hospitalIds.includes(row.hospital_id) ? row.hospital_id : null,
      tokenHash: hashToken(token), screenLocked: row.locked_at !== null,
    };
  };

  it('reads the session of a request in one statement', async () => {
    const token = await tokenFor(h.app, 'primary');
    statements.length = 0;
    capturing = true;
    const res = await call(h.app, 'GET', '/api/enums', { token });
    capturing = false;
    expect(res.statusCode).toBe(200);
    const touching = statements.filter((s) => /auth_tokens|user_roles|user_hospitals/.test(s));
    expect(touching).toHaveLength(1);
    expect(touching[0]).toMatch(/auth_tokens/);
    expect(touching[0]).toMatch(/user_roles/);
    expect(touching[0]).toMatch(/user_hospitals/);
  });

  it('answers what the token, roles and hospitals lookups answered, for every demo account', async () => {
    const names = (await h.db.selectFrom('users').select('name').orderBy('id').execute()).map((r) => r.name);
    expect(names.length).toBeGreaterThan(5);
    for (const name of names) {
      const token = await tokenFor(h.app, name);
      expect(await sessionFromToken(h.db, token), name).toMatchObject(await expected(name, token));
    }
  });

  it('keeps role order, merges and sorts permissions, skips a role whose extra is not JSON', async () => {
    const id = await userId(h.db, 'qc');
    const now = new Date().toISOString();
    const role = (identification: string, extra: string) => h.db.insertInto('roles').values({ name: identification, identification, description: null, extra, created_at: now })
      .returning('id').executeTakeFirstOrThrow();
    const broken = await role('engine_broken', 'not json');
    const extra = await role('engine_extra', JSON.stringify(['zz_extra', 'case_view', 7]));
    await h.db.insertInto('user_roles').values([{ user_id: id, role_id: broken.id }, { user_id: id, role_id: extra.id }]).execute();
    const token = await tokenFor(h.app, 'qc');
    const session = await sessionFromToken(h.db, token);
    expect(session).toMatchObject(await expected('qc', token));
    expect(session!.identification.slice(-2)).toEqual(['engine_broken', 'engine_extra']);
    expect(session!.permissions).toContain('zz_extra');
    expect(session!.permissions).toEqual([...session!.permissions].sort());
    expect(new Set(session!.permissions).size).toBe(session!.permissions.length);
  });

  it('a user without roles or hospitals has an empty session, not a failed one', async () => {
    const token = await tokenFor(h.app, 'clinician');
    const id = await userId(h.db, 'clinician');
    await h.db.deleteFrom('user_roles').where('user_id', '=', id).execute();
    await h.db.deleteFrom('user_hospitals').where('user_id', '=', id).execute();
    expect(await sessionFromToken(h.db, token)).toMatchObject({ id, identification: [], permissions: [], hospitalIds: [], hospitalId: null });
  });

  it('drops the working hospital the user left, and tells a locked screen', async () => {
    const token = await tokenFor(h.app, 'signer');
    const id = await userId(h.db, 'signer');
    const before = (await sessionFromToken(h.db, token))!;
    expect(before.hospitalId).not.toBeNull();
    expect(before.screenLocked).toBe(false);
    await h.db.deleteFrom('user_hospitals').where('user_id', '=', id).where('hospital_id', '=', before.hospitalId!).execute();
    await h.db.updateTable('auth_tokens').set({ locked_at: new Date().toISOString() }).where('token_hash', '=', hashToken(token)).execute();
    const after = (await sessionFromToken(h.db, token))!;
    expect(after.hospitalIds).not.toContain(before.hospitalId);
    expect(after.hospitalId).toBeNull();
    expect(after.screenLocked).toBe(true);
  });

  it('refuses a revoked or expired token and a disabled, locked or expired user', async () => {
    const past = new Date(Date.now() - 60_000).toISOString();
    const id = await userId(h.db, 'scanner');
    const tokens = (token: string) => h.db.updateTable('auth_tokens').where('token_hash', '=', hashToken(token));
    const users = () => h.db.updateTable('users').where('id', '=', id);
    const changes: Record<string, (token: string) => Promise<unknown>> = {
      revoked: (token) => tokens(token).set({ revoked_at: past }).execute(),
      'expired token': (token) => tokens(token).set({ expires_at: past }).execute(),
      disabled: () => users().set({ status: 0 }).execute(),
      locked: () => users().set({ locked: 1 }).execute(),
      'expired user': () => users().set({ expires_at: past }).execute(),
    };
    for (const [what, change] of Object.entries(changes)) {
      const token = await tokenFor(h.app, 'scanner');
      expect(await sessionFromToken(h.db, token), what).not.toBeNull();
      await change(token);
      expect(await sessionFromToken(h.db, token), what).toBeNull();
      expect((await call(h.app, 'GET', '/api/enums', { token })).statusCode, what).toBe(401);
      await users().set({ status: 1, locked: 0, expires_at: null }).execute();
    }
  });
});
