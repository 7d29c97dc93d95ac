import fs from 'node:fs';
import fc from 'fast-check';
import type { LogEvent } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OPERATORS } from '../../src/core/filters.js';
import type { ResourceDef, VirtualHop } from '../../server/resources/definition.js';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

const RUNS = 2400;
const KINDS = ['text', 'number', 'date', 'enum', 'boolean', 'virtual'] as const;
type Kind = (typeof KINDS)[number];

/**
 * Three resources between them hold every kind of filterable column: text, number (integer, bigint,
 * float), date (date and datetime, stored as text), enum (text or integer codes a select offers),
 * boolean (0/1 flags) and virtual (a join table's integer, a parent's text).
 */
const TARGETS = [
  { file: 'users', enums: ['status'], flags: ['locked'] },
  { file: 'cases', enums: ['case_type', 'gender', 'age_unit', 'main_phase', 'sub_phase'], flags: ['expedite_status'] },
  { file: 'slides', enums: ['status', 'vendor'], flags: ['has_label', 'has_macro'] },
].map(({ file, enums, flags }) => {
  const def = JSON.parse(fs.readFileSync(`schemas/resources/${file}.json`, 'utf8')) as ResourceDef;
  const kindOf = (name: string): Kind => {
    if (def.virtual?.[name]) return 'virtual';
    if (enums.includes(name)) return 'enum';
    if (flags.includes(name)) return 'boolean';
    const type = def.columns[name].type;
    return type === 'string' ? 'text' : type === 'date' || type === 'datetime' ? 'date' : 'number';
  };
  const filterable = [...Object.keys(def.columns).filter((c) => def.columns[c].filter), ...Object.keys(def.virtual ?? {})];
  const hops = Object.values(def.virtual ?? {}).flatMap((v) => {
    const out: string[] = [];
    for (let hop: VirtualHop | undefined = v.via; hop; hop = hop.then) out.push(hop.table, hop.key, hop.column);
    return out;
  });
  /** Every identifier a list of this resource may name in SQL: its table, its columns, the join tables of its virtual fields. */
  const whitelist = new Set([def.table, ...Object.keys(def.columns), 'extra', 'n', ...hops, ...filterable.map((_, i) => `t${i}`)]);
  return { def, route: def.route, kinds: new Map(filterable.map((c) => [c, kindOf(c)])), whitelist };
});
for (const kind of KINDS) if (!TARGETS.some((t) => [...t.kinds.values()].includes(kind))) throw new Error(`no column of kind ${kind}`);

/** Values a hostile or careless client might send: SQL fragments, odd types, huge and nested things. */
const nasty = fc.oneof(
  fc.constantFrom("'; DROP TABLE users; --", '" OR 1=1 --', '%', '_', '\\', 'name', 'users.id', '1; select 1', '', ' ', null, 'a\u0000b', 'x'.repeat(201)),
  fc.string({ maxLength: 30 }), fc.integer(), fc.double(), fc.boolean(), fc.constantFrom(2 ** 31, -(2 ** 31) - 1, 99_999_999_999, 1e300, -0),
  fc.array(fc.oneof(fc.string({ maxLength: 10 }), fc.integer()), { maxLength: 4 }),
  fc.dictionary(fc.string({ maxLength: 5 }), fc.string({ maxLength: 5 }), { maxKeys: 2 }),
);
/** What the search drawer sends for a column of each stored type, shaped for the operator (a pair, a list, one value). */
const fitting = {
  number: fc.oneof(fc.integer({ min: -2, max: 20 }), fc.constantFrom(0, 1, '1', '12')),
  text: fc.constantFrom('a', 'doc', '王', 'routine', 'frozen', 'ready', 'F', 'year', 'svs', 'admin', '%', '_', "'; DROP TABLE users; --"),
  date: fc.constantFrom('2026-01-01', '2026-01-01 00:00:00', '2026-01-01T08:00:00Z', '2099-12-31 23:59:59', '1999-01-01'),
};
const typeOf = (def: ResourceDef, column: string) => {
  const type = def.columns[column]?.type ?? def.virtual?.[column]?.type;
  return type === 'string' ? 'text' : type === 'date' || type === 'datetime' ? 'date' : 'number';
};
const shaped = (one: fc.Arbitrary<unknown>, op: string) => (op.endsWith('between') ? fc.tuple(one, one)
  : op.endsWith('in') ? fc.oneof(fc.array(one, { minLength: 1, maxLength: 4 }), one) : one);
/** Anything of any type, so every operator also meets values that do not fit its column. */
const any = fc.oneof(fitting.number, fitting.text, fitting.date, fc.double({ min: -10, max: 10, noNaN: true }), fc.boolean(), fc.constantFrom('true', '2026-13-45'));
const operator = fc.oneof({ arbitrary: fc.constantFrom(...OPERATORS), weight: 20 }, { arbitrary: fc.constantFrom('regexp', '==', 'LIKE', 'in)', ''), weight: 1 });
const combinator = fc.oneof({ arbitrary: fc.constantFrom('and', 'or', 'except', undefined), weight: 20 }, { arbitrary: fc.string({ maxLength: 6 }), weight: 1 });
const sometimes = <T>(good: fc.Arbitrary<T>) => fc.oneof({ arbitrary: good, weight: 15 }, { arbitrary: nasty, weight: 1 });

function payloadFor(target: (typeof TARGETS)[number]) {
  const columns = [...target.kinds.keys()];
  const validColumn = fc.constantFrom(...columns);
  const column = fc.oneof({ arbitrary: validColumn, weight: 20 },
    { arbitrary: fc.constantFrom('password_hash', `${target.def.table}.id`, 'name; --', '"name"', 'role_id) or (1=1', ''), weight: 1 }, { arbitrary: fc.string({ maxLength: 20 }), weight: 1 });
  // Mostly a value of the column's type in the operator's shape; sometimes any type, sometimes hostile.
  const leaf = fc.tuple(column, operator).chain(([col, op]) => fc.record({
    column: fc.constant(col),
    operator: fc.constant(op),
    value: fc.oneof({ arbitrary: shaped(fitting[typeOf(target.def, col)], op), weight: 12 }, { arbitrary: shaped(any, op), weight: 3 }, { arbitrary: nasty, weight: 1 }),
    condition: combinator,
  }, { requiredKeys: ['column', 'operator'] }));
  const { condition } = fc.letrec((tie) => ({
    condition: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      { arbitrary: leaf, weight: 4 },
      { arbitrary: fc.record({ condition: combinator, child: fc.array(tie('condition'), { maxLength: 3 }) }), weight: 1 },
    ),
  }));
  const sortable = Object.keys(target.def.columns).filter((c) => target.def.columns[c].sort);
  return fc.record({
    filter: sometimes(fc.array(condition, { maxLength: 4 })),
    tabs: fc.option(fc.array(fc.record({ key: fc.constantFrom('a', 'b', 'c'), filter: fc.array(condition, { maxLength: 2 }) }), { maxLength: 3 }), { nil: undefined, freq: 2 }),
    sort_by: sometimes(fc.dictionary(fc.constantFrom(...sortable, 'password_hash'), fc.constantFrom('asc', 'desc'), { maxKeys: 2 })),
    params: sometimes(fc.dictionary(validColumn, fitting.number, { maxKeys: 1 })),
    page: sometimes(fc.integer({ min: 1, max: 3 })),
    page_size: sometimes(fc.integer({ min: 1, max: 200 })),
    search: sometimes(fc.constantFrom('', 'a', 'doc', '%_', '王')),
  }, { requiredKeys: [] });
}
const request = fc.nat({ max: TARGETS.length - 1 }).chain((i) => fc.tuple(fc.constant(i), payloadFor(TARGETS[i]), fc.constantFrom('lists', 'count'), fc.boolean()));

/** Each operator the payload applies to a column of a known kind (params and `in` shorthands included). */
function applied(target: (typeof TARGETS)[number], body: Record<string, unknown>): string[] {
  const out: string[] = [];
  const walk = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const c of items as Record<string, unknown>[]) {
      if (!c || typeof c !== 'object') continue;
      if (c.child !== undefined) walk(c.child);
      else if (typeof c.column === 'string' && target.kinds.has(c.column) && typeof c.operator === 'string') out.push(`${target.kinds.get(c.column)} ${c.operator}`);
    }
  };
  walk(body.filter);
  if (Array.isArray(body.tabs)) for (const tab of body.tabs as { filter: unknown }[]) walk(tab.filter);
  return out;
}

describe.each(databases)('lists under random filter payloads [%s]', (kind) => {
  let h: Harness;
  let token: string;
  const statements: string[] = [];
  beforeAll(async () => {
    h = await startApp(kind, { log: (e: LogEvent) => { statements.push(e.query.sql); } });
    token = await tokenFor(h.app, 'admin');
  });
  afterAll(async () => { await h.close(); });

  it(`answers ${RUNS} payloads over every operator × column kind with the envelope and 200 or 422, never a 500, naming only whitelisted identifiers in SQL`, async () => {
    const seen = { 200: 0, 422: 0 } as Record<number, number>;
    const covered = new Map<string, number>();
    await fc.assert(fc.asyncProperty(request, async ([i, body, endpoint, asPost]) => {
      const target = TARGETS[i];
      statements.length = 0;
      const url = `${target.route}/${endpoint}`;
      const res = asPost
        ? await call(h.app, 'POST', url, { token, payload: body })
        : await call(h.app, 'GET', `${url}?${new URLSearchParams(Object.entries(body).filter(([, v]) => v !== undefined)
          .map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v) ?? ''])).toString()}`, { token });
      expect([200, 422], res.body).toContain(res.statusCode);
      seen[res.statusCode] = (seen[res.statusCode] ?? 0) + 1;
      for (const pair of applied(target, body)) covered.set(pair, (covered.get(pair) ?? 0) + 1);
      const json = res.json();
      if (res.statusCode === 422) expect(json.message).toEqual(expect.any(String));
      else if (endpoint === 'lists') expect(json).toMatchObject({ code: 0, message: 'ok', data: { data: expect.any(Array), total: expect.any(Number) } });
      else expect(json).toMatchObject({ code: 0, message: 'ok', data: expect.any(Object) });

      // The statements built from the payload are the ones over the resource's table; the session lookup joins auth_tokens.
      for (const text of statements.filter((t) => t.includes(`from "${target.def.table}"`) && !t.includes('"auth_tokens"'))) {
        // Identifiers are quoted by Kysely ("users"."name"); everything else from the client is a bound parameter.
        for (const [, ident] of text.matchAll(/"([^"]*)"/g)) expect(target.whitelist, `${ident} in ${text}`).toContain(ident);
        expect(text).not.toMatch(/DROP|1=1|--/i);
      }
    }), { numRuns: RUNS, seed: 20261122 });
    console.log(`[${kind}] ${RUNS} random list and count payloads: ${seen[200]} answered 200, ${seen[422]} answered 422`);
    // Both outcomes must be well represented, or the generator is only testing the front door.
    expect(seen[200]).toBeGreaterThan(RUNS / 5);
    expect(seen[422]).toBeGreaterThan(RUNS / 10);
    // Every operator met every kind of column, several times.
    const missing = KINDS.flatMap((k) => OPERATORS.map((op) => `${k} ${op}`)).filter((pair) => (covered.get(pair) ?? 0) < 5);
    expect(missing).toEqual([]);
  }, 240_000);
});
