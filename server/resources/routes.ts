import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.js';
import { ok } from '../http/envelope.js';
import { OpenRow, okResponse, pageOf } from '../http/responses.js';
import { AppError } from '../http/errors.js';
import { workingHospital } from '../http/hospital-scope.js';
import type { TypedApp } from '../http/types.js';
import type { Contract } from '../../src/core/contract.js';
import { contractForm } from '../../src/core/resolvePage.js';
import type { RuleResolver } from '../../src/core/rules.js';
import type { ResourceDef } from './definition.js';
import type { ResourceHooks } from './hooks/types.js';
import { addedColumns } from './extra-fields.js';
import { parseListQuery } from './list-query.js';
import { resolveDerived } from './derived-filters.js';
import { withCurrentUser } from './current-user.js';
import { countTabs, deleteRows, getRow, idsInScope, insertRow, listRows, updateRow } from './queries.js';
import { rowScope } from './user-scope.js';
import { checkWriteFields } from './write-fields.js';
import { transitionRoute } from './transitions.js';
import { initialPatch, machineOf } from '../../src/core/stateMachine.js';
import { ruleFieldValues } from '../../src/core/ruleFields.js';
import type { Row } from './hooks/types.js';
import { validateWrite } from './write-validation.js';
import { guardWrite } from './write-guards.js';
import { checkReferences } from './write-references.js';
import { withAggregates } from './aggregates.js';
import { moveBalance } from './ledger.js';

const Id = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const Body = Type.Record(Type.String(), Type.Unknown());

/** What the generic layer takes from the modules, so it imports none of them. */
export interface ResourceDeps {
  /** A resource's write contract as layered for a hospital (the schemas module's contract store), and its named rules. */
  contracts: {
    contractFor(def: ResourceDef, hospitalId: number): Promise<Contract>;
    rulesFor(hospitalId: number): Promise<RuleResolver>;
    /** Enum values an enum-backed field accepts. */
    readonly enums?: Record<string, { value: unknown }[]>;
  };
  /** Hooks by the name a resource's JSON gives them (`"hooks": "users"`): server/modules/resource-hooks.ts. */
  hooks: Record<string, ResourceHooks>;
  /** Opens the fields that arrive sealed (passwords sealed with the server's key) before validation: the auth module. */
  openSealed(fields: string[], body: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Where a broken hospital rule (a state machine, a rule field) is reported. */
  warn?(message: string): void;
}

// A resource's columns come from its definition and hooks: rows are declared open (any JSON in lists), so no field is dropped.
const listed = okResponse(pageOf());
const counted = okResponse(Type.Record(Type.String(), Type.Integer()));
const oneRow = okResponse(OpenRow);

/** The generic resource API of spec §7 for every resource in schemas/resources. */
export function resourceRoutes(app: TypedApp, db: Db, defs: ResourceDef[], deps: ResourceDeps): void {
  const byName = new Map(defs.map((d) => [d.name, d]));
  for (const def of defs) {
    const hooks = def.hooks ? deps.hooks[def.hooks] : undefined;
    if (def.hooks && !hooks) throw new Error(`resource ${def.name}: no hooks named ${def.hooks}`);
    const tags = [`resource:${def.name}`];
    const context = (request: FastifyRequest, creating: boolean, id?: number) =>
      ({ creating, id, user: request.auth!, ...(def.scope === 'hospital' ? { hospitalId: workingHospital(request) } : {}) });
    const scope = (request: FastifyRequest) => rowScope(def, request);
    const hospitalOf = (request: FastifyRequest) => request.auth!.hospitalId ?? 0;
    /** The checks of one write: known fields, sealed ones opened, then the contract's form over the record it makes. */
    const checked = async (request: FastifyRequest, body: Record<string, unknown>, record: (opened: Record<string, unknown>) => Record<string, unknown>, creating: boolean) => {
      const contract = await deps.contracts.contractFor(def, hospitalOf(request));
      checkWriteFields(def, hooks, contract, body, request.lang);
      const opened = await deps.openSealed(Object.keys(contract.fields).filter((f) => contract.fields[f].sealed), body);
      validateWrite(contractForm(contract, deps.contracts.enums), record(opened), creating, request.lang,
        { ...(creating ? {} : { sent: Object.keys(opened) }), resolve: await deps.contracts.rulesFor(hospitalOf(request)) });
      return opened;
    };

    const query = async (request: FastifyRequest, raw: unknown) => {
      // The fields the requesting hospital added may be filtered and sorted by; another hospital's stay unknown.
      const added = def.extra ? addedColumns(def, await deps.contracts.contractFor(def, hospitalOf(request))) : {};
      const q = { ...withCurrentUser(parseListQuery(raw as Record<string, unknown>, def, added), request.auth!.id), scope: scope(request) };
      return resolveDerived(db, def, hooks, q, { scope: q.scope, hospitalId: hospitalOf(request) });
    };
    // Aggregates (a consumable's stock over its batches), then rule fields (`ruleFields`: an order's "overdue", stock
    // below its minimum) are evaluated on the rows as they are answered, at the request's time.
    const ruled = async <T extends Row[]>(request: FastifyRequest, given: T): Promise<T> => {
      const rows = await withAggregates(db, def, byName, given);
      if (!def.ruleFields) return rows;
      const resolve = await deps.contracts.rulesFor(hospitalOf(request));
      const now = new Date().toISOString();
      return rows.map((r) => ({ ...r, ...ruleFieldValues(def.ruleFields!, r, resolve, now, deps.warn) })) as T;
    };
    const one = async (request: FastifyRequest, id: number) => (await ruled(request, [await getRow(db, def, hooks, id, scope(request))]))[0];
    const list = async (request: FastifyRequest, raw: unknown) => {
      const page = await listRows(db, def, hooks, await query(request, raw));
      return ok({ ...page, data: await ruled(request, page.data) });
    };
    const count = async (request: FastifyRequest, raw: unknown) => ok(await countTabs(db, def, await query(request, raw)));
    // POST variants carry long filters in the body; they read, so they are not operation-logged.
    const read = { access: { permission: def.permissions.list }, audit: false };
    app.get(`${def.route}/lists`, { config: read, schema: { tags, response: listed } }, (r) => list(r, r.query));
    app.post(`${def.route}/lists`, { config: read, schema: { tags, body: Body, response: listed } }, (r) => list(r, r.body));
    app.get(`${def.route}/count`, { config: read, schema: { tags, response: counted } }, (r) => count(r, r.query));
    app.post(`${def.route}/count`, { config: read, schema: { tags, body: Body, response: counted } }, (r) => count(r, r.body));

    app.get(`${def.route}/item/:id`, { config: { access: { permission: def.permissions.read } }, schema: { tags, params: Id, response: oneRow } }, async (request) =>
      ok(await one(request, request.params.id)));

    if (def.readOnly) continue;
    const perm = (key: 'create' | 'update' | 'delete') => ({ access: { permission: def.permissions[key]! } });

    app.post(`${def.route}/store`, { config: perm('create'), schema: { tags, body: Body, response: oneRow } }, async (request) => {
      const data = await checked(request, request.body, (opened) => opened, true);
      if (def.writeGuards) guardWrite(def, request, 'create', { record: data, old: null }, await deps.contracts.rulesFor(hospitalOf(request)), deps.warn);
      await checkReferences(db, def, byName, data, workingHospital(request), request);
      // A row of a state machine starts in its initial state, whatever the request says.
      const machine = def.stateMachine ? machineOf(def.stateMachine, await deps.contracts.rulesFor(hospitalOf(request)), deps.warn) : undefined;
      const initial = machine ? { set: initialPatch(machine, { userId: request.auth!.id, now: new Date().toISOString() }) } : {};
      // A ledger's row moves its balance in the insert's transaction (ledger.ts).
      const balances = def.ledger ? byName.get(def.ledger.balances)! : undefined;
      const before = balances ? { before: (trx: Db, values: Record<string, unknown>) => moveBalance(trx, def, balances, values) } : {};
      const id = await insertRow(db, def, hooks, data, context(request, true), { ...initial, ...before });
      return ok(await one(request, id));
    });

    // A ledger's movements (appendOnly) are never changed or deleted: a correction is a new movement.
    if (!def.appendOnly) app.patch(`${def.route}/update/:id`, { config: perm('update'), schema: { tags, params: Id, body: Body, response: oneRow } }, async (request) => {
      const { id } = request.params;
      // A shared row (a transport's receiver, scoped-tables.ts `sharedWith`) is edited by its owner only.
      const current = await getRow(db, def, hooks, id, scope(request), 'owner');
      // The patch is checked as part of the whole record it produces, so a partial update cannot break a rule.
      const patch = await checked(request, request.body, (opened) => ({ ...current, ...opened }), false);
      if (def.writeGuards) guardWrite(def, request, 'update', { record: { ...current, ...patch }, old: current }, await deps.contracts.rulesFor(hospitalOf(request)), deps.warn);
      await checkReferences(db, def, byName, patch, Number(current.hospital_id), request);
      await updateRow(db, def, hooks, id, patch, context(request, false, id));
      return ok(await one(request, id));
    });

    transitionRoute(app, db, def, hooks, {
      scope,
      context: (request, id) => context(request, false, id),
      answer: one,
      checked: (request, body, current) => checked(request, body, (opened) => ({ ...current, ...opened }), false),
      rulesFor: (request) => deps.contracts.rulesFor(hospitalOf(request)),
      stateLabel: (field, state, lang) => {
        const words = deps.contracts.enums?.[String(def.columns[field]?.options ?? '')];
        const label = (words?.find((o) => o.value === state) as { label?: Record<string, string> } | undefined)?.label;
        return label?.[lang] ?? state;
      },
      warn: (m) => deps.warn?.(m),
    });

    if (!def.appendOnly) app.delete(`${def.route}/destroy`, {
      config: perm('delete'),
      schema: { tags, body: Type.Object({ ids: Type.Array(Type.Integer({ minimum: 1 }), { maxItems: 1000 }) }), response: okResponse(Type.Object({ deleted: Type.Integer() })) },
    }, async (request) => {
      const { ids } = request.body;
      if (!ids.length) throw new AppError(422, 'resource.ids_required');
      // Another hospital's (or user's) rows are not there for this user: deleting them is refused as a whole.
      if (def.scope && (await idsInScope(db, def, ids, scope(request))).length !== new Set(ids).size) throw new AppError(404, 'resource.not_found');
      // Each row the delete takes must pass the guards; one refused refuses the whole delete.
      if (def.writeGuards) {
        const resolve = await deps.contracts.rulesFor(hospitalOf(request));
        for (const id of new Set(ids)) guardWrite(def, request, 'delete', { record: null, old: await getRow(db, def, hooks, id, scope(request)) }, resolve, deps.warn);
      }
      return ok({ deleted: await deleteRows(db, def, hooks, ids, context(request, false)) });
    });
  }
}
