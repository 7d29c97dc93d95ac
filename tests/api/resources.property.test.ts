import fc from 'fast-check';
import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS } from '../../src/core/filters.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const USERS = '/api/system_management/users';
const resource = JSON.parse((await import('node:fs')).readFileSync('schemas/resources/users.json', 'utf8'));
const COLUMNS = Object.keys(resource.columns);
const VIRTUAL = Object.keys(resource.virtual);
/** Every identifier a users list may name in SQL: its table, its columns, the join tables of its virtual fields. */
const WHITELIST = new Set(['users', ...COLUMNS, 'extra', 'n', ...Object.values(resource.virtual as Record<string, { via: { table: string; key: string; column: string } }>).flatMap((v) => [v.via.table, v.via.key, v.via.column])]);

/** Values a hostile or careless client might send: SQL fragments, odd types, huge and nested things. */
const nasty = fc.oneof(
  fc.constantFrom("'; DROP TABLE users; --", '" OR 1=1 --', '%', '_', '\\', 'name', 'users.id', '1; select 1', '', ' ', null, '2026-01-01 00:00:00'),
  fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(),
  fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
/** Mostly what the search drawer sends, with hostile parts mixed in at a lower weight. */
const validColumn = fc.constantFrom(...COLUMNS.filter((c) => resource.columns[c].filter), ...VIRTUAL);
const column = fc.oneof({ arbitrary: validColumn, weight: 4 },
  { arbitrary: fc.constantFrom('password_hash', 'users.name', 'name; --', '"name"', 'role_id) or (1=1', ''), weight: 1 }, { arbitrary: fc.string({ maxLength: 20 }), weight: 1 });
const operator = fc.oneof({ arbitrary: fc.constantFrom(...OPERATORS), weight: 5 }, { arbitrary: fc.constantFrom('regexp', '==', 'LIKE', 'in)', ''), weight: 1 });
const combinator = fc.oneof({ arbitrary: fc.constantFrom('and', 'or', 'except', undefined), weight: 5 }, { arbitrary: fc.string({ maxLength: 6 }), weight: 1 });
const plausible = fc.oneof(fc.integer({ min: 0, max: 20 }), fc.constantFrom('a', 'doc', '王', '2026-01-01 00:00:00', '%', "'; DROP TABLE users; --"),
  fc.tuple(fc.integer({ min: 0, max: 10 }), fc.integer({ min: 0, max: 20 })), fc.array(fc.integer({ min: 1, max: 12 }), { minLength: 1, maxLength: 3 }));
const value = fc.oneof({ arbitrary: plausible, weight: 4 }, { arbitrary: nasty, weight: 1 });
const { condition } = fc.letrec((tie) => ({
  condition: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc.record({ column, operator, value, condition: combinator }, { requiredKeys: [] }),
    fc.record({ condition: combinator, child: fc.array(tie('condition'), { maxLength: 3 }) }),
  ),
}));
const sometimes = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 6 }, { arbitrary: nasty, weight: 1 });
const payload = fc.record({
  filter: sometimes(fc.array(condition, { maxLength: 4 })),
  sort_by: sometimes(fc.dictionary(fc.constantFrom('id', 'name', 'status', 'created_at', 'password_hash'), fc.constantFrom('asc', 'desc'), { maxKeys: 2 })),
  params: sometimes(fc.dictionary(validColumn, plausible, { maxKeys: 2 })),
  page: sometimes(fc.integer({ min: 1, max: 3 })),
  page_size: sometimes(fc.integer({ min: 1, max: 200 })),
  search: sometimes(fc.constantFrom('', 'a', 'doc', '%_')),
}, { requiredKeys: [] });

describe.each(databases)('lists under random filter payloads [%s]', (kind) => {
  let h: Harness;
  let token: string;
  const statements: string[] = [];
  beforeAll(async () => {
    h = await startApp(kind, { log: (e: LogEvent) => { statements.push(e.query.sql); } });
    token = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  it('answers every payload with the envelope and 200 or 422, never a 500, and names only whitelisted identifiers in SQL', async () => {
    const seen = { 200: 0, 422: 0 } as Record<number, number>;
    await fc.assert(fc.asyncProperty(payload, fc.boolean(), async (body, asPost) => {
      statements.length = 0;
      const res = asPost
        ? await call(h.app, 'POST', `${USERS}/lists`, { token, payload: body })
        : await call(h.app, 'GET', `${USERS}/lists?${new URLSearchParams(Object.entries(body).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? ''])).toString()}`, { token });
      expect([200, 422], res.body).toContain(res.statusCode);
      seen[res.statusCode] = (seen[res.statusCode] ?? 0) + 1;
      const json = res.json();
      if (res.statusCode === 200) expect(json).toMatchObject({ code: 0, message: 'ok', data: { data: expect.any(Array), total: expect.any(Number) } });
      else expect(json.message).toEqual(expect.any(String));

      // The statements built from the payload are the ones over "users"; the session lookup joins auth_tokens.
      for (const text of statements.filter((t) => /from "users"/.test(t) && !t.includes('"auth_tokens"'))) {
        // Identifiers are quoted by Kysely ("users"."name"); everything else from the client is a bound parameter.
        for (const [, ident] of text.matchAll(/"([^"]*)"/g)) expect(WHITELIST, `${ident} in ${text}`).toContain(ident);
        expect(text).not.toMatch(/DROP|1=1|--/i);
      }
    }), { numRuns: 300, seed: 20261122 });
    console.log(`[${kind}] 300 random list payloads: ${seen[200]} answered 200, ${seen[422]} answered 422`);
    // Both outcomes must be well represented, or the generator is only testing the front door.
    expect(seen[200]).toBeGreaterThan(30);
    expect(seen[422]).toBeGreaterThan(30);
  });
});
