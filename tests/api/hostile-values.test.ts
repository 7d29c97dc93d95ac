import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isIdName, MAX_ID } from '../../server/http/hostile-input.js';
import { databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 27, finding 7: every route of the app's own route table (its OpenAPI document, which @fastify/swagger builds
 * from each route as it is declared) meets hostile values in each of its path params, query params and body fields,
 * chosen by the type the route declares (by the field's name where it declares none): ids at 0, −1, 2^31, 2^63 and
 * 1e309, NUL, 100 KB strings, deep nesting and wrong types. Every answer is 2xx or 4xx, never 5xx, on both databases.
 * Each case goes out once: every other one as the administrator, the rest as each other demo user and as no one in
 * turn, so every demo role (and the anonymous caller of the public routes) meets its share of every route's cases
 * while the run stays within about a minute a database.
 */
interface Schema {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minimum?: number;
  minLength?: number;
  minItems?: number;
  format?: string;
  additionalProperties?: unknown;
}
interface Parameter { in: 'path' | 'query' | 'header' | 'cookie'; name: string; required?: boolean; schema?: Schema }
interface Operation { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema?: Schema }> } }
type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** A body as raw JSON text, so a number JSON cannot write (1e309) reaches the server's parser as a client sends it. */
const raw = (text: string) => ({ raw: text });
type Value = unknown;

const BIG = 'x'.repeat(100 * 1024);
const HOSTILE_IDS_TEXT = ['0', '-1', String(2 ** 31), '9223372036854775808', '1e309'];
/** In a JSON body (−1 takes the path 0 takes there): a number JSON cannot write goes as raw text. */
const HOSTILE_IDS_JSON: Value[] = [0, 2 ** 31, raw('9223372036854775808'), raw('1e309'), 'abc'];
const HOSTILE_TEXT: Value[] = ['a\u0000b', BIG, 12, { a: 1 }];
/** In a path or query: NUL (as a client encodes it) and a value longer than any id or name. */
const HOSTILE_TEXT_PARAM = [encodeURIComponent('a\u0000b'), 'x'.repeat(4000)];
const HOSTILE_BOOL: Value[] = ['maybe', 2, 'a\u0000'];
const HOSTILE_ARRAY: Value[] = ['not a list', [null], ['a\u0000b'], [2 ** 31], [raw('1e309')]];
const deep = (depth: number, leaf: Value): Value => (depth === 0 ? leaf : { a: deep(depth - 1, leaf) });
const deepArray = (depth: number): Value => (depth === 0 ? 1 : [deepArray(depth - 1)]);
/** Whole bodies of the wrong shape or nesting far past any form. */
const HOSTILE_BODIES: Value[] = [deep(500, 'x'), deepArray(500), [], raw('1e309'), { ['k\u0000']: 1 }];

const typesOf = (s: Schema | undefined): string[] => {
  if (!s) return [];
  if (s.anyOf ?? s.oneOf) return (s.anyOf ?? s.oneOf)!.flatMap(typesOf);
  if (s.enum || s.const !== undefined) return ['enum'];
  return Array.isArray(s.type) ? s.type : s.type ? [s.type] : [];
};

/** A value the field would accept, so that a hostile value in one field meets the code behind the others. */
function plausible(s: Schema | undefined, name = ''): Value {
  if (!s) return isIdName(name) ? 1 : 'a';
  if (s.const !== undefined) return s.const;
  if (s.enum) return s.enum[0];
  const alt = (s.anyOf ?? s.oneOf)?.find((x) => x.type !== 'null');
  if (alt) return plausible(alt, name);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'integer': case 'number': return Math.max(1, s.minimum ?? 1);
    case 'boolean': return false;
    case 'array': return Array.from({ length: s.minItems ?? 0 }, () => plausible(s.items, name));
    case 'object': return Object.fromEntries((s.required ?? []).map((k) => [k, plausible(s.properties?.[k], k)]));
    case 'string':
      if (s.format === 'date-time') return '2026-01-01T00:00:00Z';
      if (s.format === 'date') return '2026-01-01';
      return 'a'.repeat(Math.max(1, s.minLength ?? 1));
    default: return isIdName(name) ? 1 : 'a';
  }
}

/** The hostile values of a field of this schema (and name, where the schema says nothing). */
function hostileFor(s: Schema | undefined, name: string): Value[] {
  const types = typesOf(s);
  const out: Value[] = [];
  if (types.includes('integer') || types.includes('number') || (types.length === 0 && isIdName(name))) out.push(...HOSTILE_IDS_JSON);
  if (types.includes('string') || types.includes('enum') || (types.length === 0 && !isIdName(name))) out.push(...HOSTILE_TEXT);
  if (types.includes('boolean')) out.push(...HOSTILE_BOOL);
  if (types.includes('array')) out.push(...HOSTILE_ARRAY);
  if (types.includes('object')) out.push(deep(200, 'x'), 'text', { ['k\u0000']: 'v' });
  return out;
}

interface Case { method: Method; url: string; payload?: string }

/** Every case of one route: each path param, query param and body field hostile in turn, the rest plausible. */
function casesOf(method: Method, route: string, op: Operation): Case[] {
  const params = op.parameters ?? [];
  const pathParams = params.filter((p) => p.in === 'path');
  let query = params.filter((p) => p.in === 'query');
  // A list that declares no query reads its page and search from the raw query (name heuristics).
  if (method === 'GET' && query.length === 0) query = [{ in: 'query', name: 'page' }, { in: 'query', name: 'search' }];
  const bodySchema = op.requestBody?.content?.['application/json']?.schema;
  const hasBody = method !== 'GET' && (bodySchema !== undefined || method === 'POST' || method === 'PUT' || method === 'PATCH');
  // Reads and actions meet row 1 (a real case, slide, hospital …); an update or delete an id no row has, so that the
  // administrator's own user and role stay as they are while their fields meet hostile values.
  const rowId = method === 'GET' || method === 'POST' ? '1' : String(MAX_ID);
  const plausiblePath = Object.fromEntries(pathParams.map((p) => [p.name, isIdName(p.name) ? rowId : String(plausible(p.schema, p.name))]));
  const plausibleQuery = Object.fromEntries(query.filter((q) => q.required || q.schema?.enum || q.schema?.const !== undefined)
    .map((q) => [q.name, String(plausible(q.schema, q.name))]));
  const plausibleBody = bodySchema ? plausible(bodySchema) : {};
  const url = (pathValues: Record<string, string>, queryValues: Record<string, string>) => {
    let u = route.replace(/\{([^}]+)\}/g, (_, n: string) => pathValues[n] ?? 'a');
    const qs = Object.entries(queryValues).map(([k, v]) => `${encodeURIComponent(k)}=${v.includes('%') ? v : encodeURIComponent(v)}`).join('&');
    if (qs) u += `?${qs}`;
    return u;
  };
  const json = (v: Value): string => (typeof v === 'object' && v !== null && 'raw' in (v as object) ? (v as { raw: string }).raw
    : Array.isArray(v) ? `[${v.map(json).join(',')}]`
      : typeof v === 'object' && v !== null ? `{${Object.entries(v).map(([k, x]) => `${JSON.stringify(k)}:${json(x)}`).join(',')}}`
        : JSON.stringify(v) ?? 'null');
  const body = hasBody ? json(plausibleBody) : undefined;
  const out: Case[] = [];
  const textValues = (p: Parameter) => {
    const types = typesOf(p.schema);
    const numeric = types.includes('integer') || types.includes('number') || (types.length === 0 && isIdName(p.name)) || p.name === 'page' || p.name === 'page_size';
    return [...(numeric ? HOSTILE_IDS_TEXT : []), ...HOSTILE_TEXT_PARAM];
  };
  for (const p of pathParams) {
    for (const v of textValues(p)) out.push({ method, url: url({ ...plausiblePath, [p.name]: v.includes('%') ? v : encodeURIComponent(v) }, plausibleQuery), payload: body });
  }
  for (const q of query) {
    for (const v of textValues(q)) out.push({ method, url: url(plausiblePath, { ...plausibleQuery, [q.name]: v }), payload: body });
  }
  if (hasBody) {
    // A body the route does not declare field by field (the generic resources' records) meets a text and an id by name.
    const fields = bodySchema?.properties ?? (bodySchema?.type === 'object' || !bodySchema ? { name: undefined, hospital_id: undefined } as Record<string, Schema | undefined> : {});
    for (const [name, s] of Object.entries(fields)) {
      for (const v of hostileFor(s, name)) out.push({ method, url: url(plausiblePath, plausibleQuery), payload: json({ ...(plausibleBody as object), [name]: v }) });
    }
    for (const v of HOSTILE_BODIES) out.push({ method, url: url(plausiblePath, plausibleQuery), payload: json(v) });
  }
  return out;
}

/** Routes that end or lock the caller's session: run, but their caller logs in again afterwards. */
const SESSION_ENDING = /\/auth\/(logout|lock)|password/;

describe.each(databases)('every route under hostile values [%s]', (kind) => {
  let h: Harness;
  let dataDir: string;
  const tokens = new Map<string, string>();
  let users: string[] = [];
  const realFetch = globalThis.fetch;
  const outbound: string[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-hostile-'));
    // Nothing here may leave the machine: a plausible value is never an address, and this proves it.
    globalThis.fetch = (async (input: string | URL | Request) => {
      outbound.push(String(input instanceof Request ? input.url : input));
      throw new TypeError('fetch refused by the hostile-value test');
    }) as typeof fetch;
    // Logins past the per-address limit would answer 429: this test signs in again after every session a case ends.
    h = await startApp(kind, { config: { dataDir, authRateLimitPerMinute: 1_000_000 } });
    users = (await h.db.selectFrom('users').select('name').orderBy('id').execute()).map((u) => u.name);
    for (const u of users) tokens.set(u, await tokenFor(h.app, u));
  });
  afterAll(async () => {
    globalThis.fetch = realFetch;
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const send = (app: FastifyInstance, c: Case, token: string | undefined) => app.inject({
    method: c.method, url: c.url,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(c.payload !== undefined ? { 'content-type': 'application/json' } : {}), 'user-language': 'en-US' },
    ...(c.payload !== undefined ? { payload: c.payload } : {}),
  });

  it('answers every hostile value on every route, as every demo user, with 2xx or 4xx, never 5xx', async () => {
    const doc = h.app.swagger() as { paths: Record<string, Record<string, Operation>> };
    const cases: Case[] = [];
    let routes = 0;
    for (const [route, ops] of Object.entries(doc.paths)) {
      if (!route.startsWith('/api/') || route.startsWith('/api/docs')) continue;
      for (const [method, op] of Object.entries(ops)) {
        const m = method.toUpperCase() as Method;
        if (!['GET', 'POST', 'PUT', 'PATCH', 'DELETE'].includes(m)) continue;
        routes++;
        cases.push(...casesOf(m, route, op));
      }
    }
    const others = [undefined, ...users.filter((u) => u !== 'admin')];
    const statuses = new Map<number, number>();
    const failures: string[] = [];
    let requests = 0;
    let relogins = 0;
    const cost = new Map<string, number>();
    for (const [i, c] of cases.entries()) {
      // Every other case as the administrator (whose permissions reach every handler), the rest as each of the others in turn.
      for (const user of [i % 2 === 0 ? 'admin' : others[((i - 1) / 2) % others.length]]) {
        const began = performance.now();
        const res = await send(h.app, c, user ? tokens.get(user) : undefined);
        if (process.env.DEBUG_HOSTILE) cost.set(`${c.method} ${c.url.split('?')[0].slice(0, 80)}`, (cost.get(`${c.method} ${c.url.split('?')[0].slice(0, 80)}`) ?? 0) + performance.now() - began);
        requests++;
        statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
        if (res.statusCode >= 500) failures.push(`${res.statusCode} ${c.method} ${c.url.slice(0, 200)} as ${user ?? 'anonymous'} body ${(c.payload ?? '').slice(0, 120)}: ${res.body.slice(0, 200)}`);
        // A session this case ended or locked is begun again, so the next cases are not all answered 401 or 423.
        if (user && (res.statusCode === 401 || res.statusCode === 423 || SESSION_ENDING.test(c.url))) {
          tokens.set(user, await tokenFor(h.app, user));
          relogins++;
        }
      }
    }
    if (process.env.DEBUG_HOSTILE) console.log(`[${kind}] ${routes} routes, ${cases.length} cases, ${requests} requests, ${relogins} logins again`, Object.fromEntries(statuses), [...cost].sort((a, b) => b[1] - a[1]).slice(0, 25).map(([k, v]) => `${k} ${Math.round(v)} ms`));
    expect(routes).toBeGreaterThan(300);
    expect(requests).toBe(cases.length);
    expect(outbound).toEqual([]);
    expect(failures).toEqual([]);
    // Most cases are refused (4xx): that is the point; some must get through to show the plausible values work.
    expect([...statuses.keys()].filter((s) => s < 300).length).toBeGreaterThan(0);
  }, 600_000);
});
