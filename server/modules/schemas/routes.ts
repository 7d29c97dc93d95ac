import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import type { TypedApp } from '../../http/types.js';
import { publicFields, withAddedFields } from '../../../src/core/resolvePage.js';
import type { ResourceInfo } from '../../../src/core/pageSchema.js';
import type { ResourceDef } from '../../resources/definition.js';
import type { EnumOption } from './repository.js';
import { transferRoutes } from './transfer.js';
import { getColumnPreferences, putColumnPreferences, MenuStore, type ContractStore, type LayeredStore, type RuleStore, type SchemaStore } from './store.js';
import { fullMenuTree } from '../users/menu-tree.js';
import { okResponse } from '../../http/responses.js';

const Alias = Type.Object({ alias: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]{0,63}$' }) });
/** At most 200 aliases, comma-separated (a menu has about fifty pages). */
const Bundle = Type.Object({ aliases: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]{0,63}(,[A-Za-z][A-Za-z0-9]{0,63}){0,199}$', maxLength: 13_000 }) });
const RuleName = Type.Object({ alias: Type.String({ pattern: '^[a-z][a-z0-9-]{0,47}$' }) });
const ResourceName = Type.Object({ alias: Type.String({ pattern: '^[a-z][a-z0-9_]{0,63}$' }) });
const EDIT = { access: { permission: 'schema_edit' } } as const;
const Override = Type.Object({ override: Type.Record(Type.String(), Type.Unknown(), { maxProperties: 200 }), note: Type.Optional(Type.String({ maxLength: 500 })) });
const Rollback = Type.Object({ version: Type.Integer({ minimum: 0, maximum: 1_000_000_000 }) });

/**
 * The editing routes every layered kind shares, under `prefix/:alias`: the base, the hospital's
 * versions, a save (a new version) and a rollback (an old override saved again). Only schema editors.
 */
function versionedRoutes<T extends object>(app: TypedApp, prefix: string, Key: typeof Alias, store: LayeredStore<T>, base: (key: string) => unknown = (k) => store.base(k)) {
  const hospital = (r: FastifyRequest) => r.auth!.hospitalId ?? 0;
  const tags = [prefix.split('/').pop()!];
  app.get(`${prefix}/:alias/base`, { config: EDIT, schema: { tags, params: Key, response: okResponse() } }, async (r) => ok(base(r.params.alias)));
  app.get(`${prefix}/:alias/versions`, { config: EDIT, schema: { tags, params: Key, response: okResponse() } }, async (r) => ok(await store.versions(r.params.alias, hospital(r))));
  app.put(`${prefix}/:alias`, { config: EDIT, schema: { tags, params: Key, body: Override, response: okResponse() } }, async (r) => {
    const { override, note } = r.body;
    return ok(await store.save(r.params.alias, hospital(r), override, r.auth!.name, note));
  });
  app.post(`${prefix}/:alias/rollback`, { config: EDIT, schema: { tags, params: Key, body: Rollback, response: okResponse() } }, async (r) =>
    ok(await store.rollback(r.params.alias, hospital(r), r.body.version, r.auth!.name)));
}

/**
 * Rule sets as the caller's hospital sees them (every signed-in user: the browser evaluates them), and
 * their editing routes. The answer's shape is the pages' one: `{ alias, version, schema }`.
 */
export function ruleRoutes(app: TypedApp, rules: RuleStore): void {
  const hospital = (r: FastifyRequest) => r.auth!.hospitalId ?? 0;
  app.get('/api/rules', { config: { access: 'user' }, schema: { tags: ['rules'], response: okResponse() } }, async (r) => ok(await rules.layeredAll(hospital(r))));
  app.get('/api/rules/:alias', { config: { access: 'user' }, schema: { tags: ['rules'], params: RuleName, response: okResponse() } }, async (r) =>
    ok(await rules.layered(r.params.alias, hospital(r))));
  versionedRoutes(app, '/api/rules', RuleName as unknown as typeof Alias, rules);
}

/**
 * Page schemas for the engine (each with its resource's fields and its write contract as the working
 * hospital has extended it), their hospital overrides and versions, the contract extensions and their
 * versions (`/api/contracts/{resource}`), column preferences, enums.
 */
export function schemaRoutes(app: TypedApp, db: Db, store: SchemaStore, contracts: ContractStore, defs: ResourceDef[], enums: Record<string, EnumOption[]>, menus?: MenuStore): void {
  const hospital = (r: FastifyRequest) => r.auth!.hospitalId ?? 0;
  const resourceMeta = async (name: string | undefined, hospitalId: number): Promise<ResourceInfo | null> => {
    const def = defs.find((d) => d.name === name);
    if (!def) return null;
    const contract = await contracts.contractFor(def, hospitalId);
    // The fields the hospital added (kept in extra) join the readable ones: a list page may show them as columns.
    const fields = withAddedFields(publicFields({ ...def.computed, ...def.inputs, ...def.virtual, ...def.columns }), contract);
    const permissions = { create: '', update: '', delete: '', ...def.permissions };
    return { name: def.name, route: def.route, rowKey: 'id', fields, contract, permissions };
  };

  app.get('/api/schemas', { config: EDIT, schema: { tags: ['schemas'], response: okResponse() } }, async () => ok([...store.bases.keys()].sort()));

  /** A page schema as the engine loads it: the hospital's layered schema, its resource's fields and contract. */
  const loaded = async (alias: string, hospitalId: number) => {
    const layered = await store.layered(alias, hospitalId);
    // A form with its own contract that extends a resource: its contract as the hospital extended that resource.
    const formContract = (layered.schema.form as { extends?: string } | undefined)?.extends ? await contracts.ownContractFor(layered.schema, hospitalId) : undefined;
    return { ...layered, resource: await resourceMeta(layered.schema.resource, hospitalId), ...(formContract ? { formContract } : {}) };
  };
  app.get('/api/schemas/:alias', { config: { access: 'user' }, schema: { tags: ['schemas'], params: Alias, response: okResponse() } }, async (r) =>
    ok(await loaded(r.params.alias, hospital(r))));
  // The schemas of a user's menu in one answer (the engine's background prefetch): a request each cost a page
  // load some forty round trips. Aliases that name no schema are left out; the page then meets its own 404.
  app.get('/api/schema-bundle', { config: { access: 'user' }, schema: { tags: ['schemas'], querystring: Bundle, response: okResponse() } }, async (r) => {
    const aliases = [...new Set(r.query.aliases.split(','))].filter((a) => store.bases.has(a));
    return ok(Object.fromEntries(await Promise.all(aliases.map(async (a) => [a, await loaded(a, hospital(r))] as const))));
  });

  versionedRoutes(app, '/api/schemas', Alias, store);

  // A hospital's contract extensions: the fields it adds to a resource's forms and the rules it adds.
  app.get('/api/contracts', { config: EDIT, schema: { tags: ['contracts'], response: okResponse() } }, async () => ok([...contracts.bases.keys()].sort()));
  app.get('/api/contracts/:alias', { config: EDIT, schema: { tags: ['contracts'], params: ResourceName, response: okResponse() } }, async (r) => {
    const def = defs.find((d) => d.name === r.params.alias && !d.readOnly);
    const layered = await contracts.layered(r.params.alias, hospital(r));
    return ok({ ...layered, contract: await contracts.contractFor(def!, hospital(r)) });
  });
  versionedRoutes(app, '/api/contracts', ResourceName as unknown as typeof Alias, contracts, (name) => contracts.baseContract(name));

  const Columns = Type.Object({ columns: Type.Array(Type.Object({ prop: Type.String({ maxLength: 128 }), hidden: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), { maxItems: 200 }) });
  app.get('/api/schemas/:alias/columns', { config: { access: 'user' }, schema: { tags: ['schemas'], params: Alias, response: okResponse() } }, async (r) =>
    ok({ columns: await getColumnPreferences(db, r.auth!.id, r.params.alias) }));
  app.put('/api/schemas/:alias/columns', { config: { access: 'user' }, schema: { tags: ['schemas'], params: Alias, body: Columns, response: okResponse() } }, async (r) => {
    const { columns } = r.body;
    await putColumnPreferences(db, r.auth!.id, r.params.alias, columns);
    return ok({ columns });
  });

  // The hospital's menu changes (rename, hide, reorder): the whole menu before them, the current ones, and the
  // versioned editing routes every layered kind has, under /api/menu-config/menus.
  if (menus) {
    const MenuKey = Type.Object({ alias: Type.Literal(MenuStore.KEY) });
    app.get('/api/menu-config/menus', { config: EDIT, schema: { tags: ['menu-config'], response: okResponse() } }, async (r) => {
      const layered = await menus.layered(MenuStore.KEY, hospital(r));
      return ok({ version: layered.version, override: layered.schema, tree: await fullMenuTree(db) });
    });
    versionedRoutes(app, '/api/menu-config', MenuKey as unknown as typeof Alias, menus);
  }

  // A hospital's whole configuration, exported and imported as one file.
  if (store.rules) transferRoutes(app, db, store, store.rules, contracts, menus);

  app.get('/api/enums', { config: { access: 'user' }, schema: { tags: ['schemas'], response: okResponse() } }, async () => ok(enums));

  app.get('/api/resources', { config: { access: 'user' }, schema: { tags: ['schemas'], response: okResponse() } }, async () =>
    ok(defs.map((d) => ({ name: d.name, route: d.route, optionLabel: d.optionLabel ?? 'name', optionValue: d.optionValue ?? 'id', permissions: d.permissions }))));
}
