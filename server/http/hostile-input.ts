import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError, notFound } from './errors.js';

/**
 * The largest id a row can have. Ids are PostgreSQL `integer`s (SQLite's come from the same inserts): a larger one
 * names no row, and PostgreSQL cannot even compare it with an id column (it answered 500, issue 27 finding 7).
 */
export const MAX_ID = 2 ** 31 - 1;

/** Nesting a request body may have: far beyond any form or page schema we store, short of what a recursive reader survives. */
export const MAX_DEPTH = 100;

/** A field that holds ids by its name: `id`, `ids`, `slide_id`, `role_ids`, `caseId`, `slideIds`. */
export const isIdName = (name: string) => /^ids?$|_ids?$|[a-z]Ids?$/.test(name);

type Schema = Record<string | symbol, unknown>;

/**
 * The route's request schemas with every id field bounded to MAX_ID: an integer (or number) schema of a field named as
 * an id gets `maximum`, in params, query and body, nested objects and arrays of ids included. A copy: shared schema
 * objects (one `Id` used by many routes) are left as they are.
 */
export function boundedRouteSchema<T extends Record<string, unknown>>(schema: T): T {
  const out: Record<string, unknown> = { ...schema };
  for (const part of ['params', 'querystring', 'body'] as const) {
    if (isSchema(out[part])) out[part] = walk(out[part] as Schema, false);
  }
  return out as T;
}

function walk(schema: Schema, id: boolean): Schema {
  const out: Schema = { ...schema };
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (id && (types.includes('integer') || types.includes('number'))) {
    out.maximum = typeof schema.maximum === 'number' ? Math.min(schema.maximum, MAX_ID) : MAX_ID;
  }
  if (isSchema(schema.properties)) {
    out.properties = Object.fromEntries(Object.entries(schema.properties as Record<string, unknown>)
      .map(([name, sub]) => [name, isSchema(sub) ? walk(sub as Schema, isIdName(name)) : sub]));
  }
  if (isSchema(schema.items)) out.items = walk(schema.items as Schema, id);
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    if (Array.isArray(schema[key])) out[key] = (schema[key] as unknown[]).map((s) => (isSchema(s) ? walk(s as Schema, id) : s));
  }
  return out;
}

const isSchema = (v: unknown): v is Schema => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Where a request's text holds a NUL character (PostgreSQL cannot store or compare one; it answered 500), as a field
 * path, or whether its body nests deeper than MAX_DEPTH. Walks without recursion: a hostile body may nest deeper
 * than the stack.
 */
export function inspectInput(parts: Record<string, unknown>): { nul?: string; tooDeep?: string } {
  const stack: { value: unknown; path: string; depth: number }[] = Object.entries(parts).map(([path, value]) => ({ value, path, depth: 0 }));
  while (stack.length) {
    const { value, path, depth } = stack.pop()!;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return { nul: path };
      continue;
    }
    // What parsers make (objects of any prototype: the router's params have one of their own, arrays); not bytes or a stream.
    if (typeof value !== 'object' || value === null || ArrayBuffer.isView(value) || typeof (value as { pipe?: unknown }).pipe === 'function') continue;
    if (depth >= MAX_DEPTH) return { tooDeep: path };
    for (const [key, child] of Object.entries(value)) {
      const at = path ? `${path}.${key}` : key;
      if (key.includes('\u0000')) return { nul: at };
      stack.push({ value: child, path: at, depth: depth + 1 });
    }
  }
  return {};
}

/** A whole number as a client writes one in a path (`12`, `-1`, `99999999999`); `1e309` or `1.5` are left to the schema. */
const WHOLE = /^[-+]?\d+$/;

/** Why the request may not go on, or undefined. */
function refusal(request: FastifyRequest): AppError | undefined {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const declared = (request.routeOptions.schema?.params as Schema | undefined)?.properties as Record<string, Schema> | undefined;
  for (const [name, value] of Object.entries(params)) {
    if (!isIdName(name) || typeof value !== 'string' || !WHOLE.test(value)) continue;
    const type = declared?.[name]?.type;
    if (type !== undefined && type !== 'integer' && type !== 'number') continue;
    // An id past the database's integer names no row: the same 404 as an id that is not there (PostgreSQL could not
    // even compare it). Within that range the route's schema or its lookup answers (0: 422 or 404, as before).
    const n = Number(value);
    if (!(n >= -MAX_ID - 1 && n <= MAX_ID)) return notFound();
  }
  const infinite = infiniteNumber(request, params);
  if (infinite) return new AppError(422, 'error.validation', {}, { [infinite]: [{ key: 'error.not_finite', params: { field: infinite } }] });
  const { nul, tooDeep } = inspectInput({ params, query: request.query, body: request.body });
  if (nul) {
    const field = fieldName(nul);
    return new AppError(422, 'error.nul_character', { field }, { [field]: [{ key: 'error.nul_character', params: { field } }] });
  }
  if (tooDeep) return new AppError(422, 'error.too_deep', { depth: MAX_DEPTH });
  return undefined;
}

/**
 * A number field of params or query whose text is a number too large for one (`1e309` reads as Infinity): ajv's
 * coercion lets it through even past a `maximum` (a 500 where it reached SQL), so it is refused here, by the schema.
 */
function infiniteNumber(request: FastifyRequest, params: Record<string, unknown>): string | undefined {
  const schema = request.routeOptions.schema;
  for (const [values, declared] of [[params, schema?.params], [request.query, schema?.querystring]] as const) {
    const properties = (declared as Schema | undefined)?.properties as Record<string, Schema> | undefined;
    if (!properties || typeof values !== 'object' || values === null) continue;
    for (const [name, value] of Object.entries(values as Record<string, unknown>)) {
      if (typeof value === 'string' && properties[name] && isNumeric(properties[name]) && Math.abs(Number(value)) === Infinity) return name;
    }
  }
  return undefined;
}

const isNumeric = (schema: Schema): boolean => {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  if (types.includes('integer') || types.includes('number')) return true;
  return ['anyOf', 'oneOf'].some((k) => Array.isArray(schema[k]) && (schema[k] as Schema[]).some(isNumeric));
};

/** `body.patient.name` → `patient.name`, the field as the validation errors name it (`query.q` → `q`). */
const fieldName = (path: string) => path.replace(/^(params|query|body)\.?/, '').replaceAll('\u0000', '\\0') || 'body';

/**
 * Ids and text bounded once for every route (issue 27 finding 7): ids in route schemas get their upper bound as the
 * routes are declared (a 422 like any invalid field), an id path param no row can have answers 404, and a NUL
 * anywhere in params, query or body, a number field of params or query too large for a number, or a body nested past
 * MAX_DEPTH, answers 422 before any handler runs.
 * Registered before the routes it bounds.
 */
export function registerHostileInput(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    if (route.schema) route.schema = boundedRouteSchema(route.schema as Record<string, unknown>);
  });
  app.addHook('preValidation', (request, _reply, done) => done(refusal(request)));
}
