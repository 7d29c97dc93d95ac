import { Type } from '@sinclair/typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import type { ResourceDef } from '../../resources/definition.js';
import type { EnumOption } from './repository.js';
import { getColumnPreferences, putColumnPreferences, type SchemaStore } from './store.js';

const Alias = Type.Object({ alias: Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]{0,63}$' }) });
const EDIT = { access: { permission: 'schema_edit' } } as const;

/** Page schemas for the engine, their hospital overrides and versions, column preferences, enums. */
export function schemaRoutes(app: FastifyInstance, db: Db, store: SchemaStore, defs: ResourceDef[], enums: Record<string, EnumOption[]>): void {
  const hospital = (r: FastifyRequest) => r.auth!.hospitalId ?? 0;
  const alias = (r: FastifyRequest) => (r.params as { alias: string }).alias;
  const resourceMeta = (name?: string) => {
    const def = defs.find((d) => d.name === name);
    if (!def) return null;
    const columns = Object.fromEntries([...Object.entries(def.columns).filter(([, c]) => c.readable !== false), ...Object.entries(def.virtual ?? {})]
      .map(([n, c]) => [n, { type: c.type, filter: !!c.filter, sort: !!('sort' in c && c.sort), search: !!('search' in c && c.search) }]));
    return { name: def.name, route: def.route, rowKey: 'id', columns, permissions: def.permissions };
  };

  app.get('/api/schemas', { config: EDIT, schema: { tags: ['schemas'] } }, async () => ok([...store.bases.keys()].sort()));

  app.get('/api/schemas/:alias', { config: { access: 'user' }, schema: { tags: ['schemas'], params: Alias } }, async (r) => {
    const layered = await store.layered(alias(r), hospital(r));
    return ok({ ...layered, resource: resourceMeta(layered.schema.resource) });
  });

  app.get('/api/schemas/:alias/base', { config: EDIT, schema: { tags: ['schemas'], params: Alias } }, async (r) => ok(store.base(alias(r))));

  app.get('/api/schemas/:alias/versions', { config: EDIT, schema: { tags: ['schemas'], params: Alias } }, async (r) =>
    ok(await store.versions(alias(r), hospital(r))));

  app.put('/api/schemas/:alias', {
    config: EDIT,
    schema: { tags: ['schemas'], params: Alias, body: Type.Object({ override: Type.Record(Type.String(), Type.Unknown()), note: Type.Optional(Type.String({ maxLength: 500 })) }) },
  }, async (r) => {
    const { override, note } = r.body as { override: object; note?: string };
    return ok(await store.save(alias(r), hospital(r), override, r.auth!.name, note));
  });

  app.post('/api/schemas/:alias/rollback', {
    config: EDIT,
    schema: { tags: ['schemas'], params: Alias, body: Type.Object({ version: Type.Integer({ minimum: 0 }) }) },
  }, async (r) => ok(await store.rollback(alias(r), hospital(r), (r.body as { version: number }).version, r.auth!.name)));

  const Columns = Type.Object({ columns: Type.Array(Type.Object({ prop: Type.String({ maxLength: 128 }), hidden: Type.Optional(Type.Boolean()) }, { additionalProperties: false }), { maxItems: 200 }) });
  app.get('/api/schemas/:alias/columns', { config: { access: 'user' }, schema: { tags: ['schemas'], params: Alias } }, async (r) =>
    ok({ columns: await getColumnPreferences(db, r.auth!.id, alias(r)) }));
  app.put('/api/schemas/:alias/columns', { config: { access: 'user' }, schema: { tags: ['schemas'], params: Alias, body: Columns } }, async (r) => {
    const { columns } = r.body as { columns: { prop: string; hidden?: boolean }[] };
    await putColumnPreferences(db, r.auth!.id, alias(r), columns);
    return ok({ columns });
  });

  app.get('/api/enums', { config: { access: 'user' }, schema: { tags: ['schemas'] } }, async () => ok(enums));

  app.get('/api/resources', { config: { access: 'user' }, schema: { tags: ['schemas'] } }, async () =>
    ok(defs.map((d) => ({ name: d.name, route: d.route, optionLabel: d.optionLabel ?? 'name', optionValue: d.optionValue ?? 'id', permissions: d.permissions }))));
}
