import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.js';
import { ok } from '../http/envelope.js';
import { AppError, forbidden } from '../http/errors.js';
import { hasPermission } from '../http/access.js';
import { workingHospital } from '../http/hospital-scope.js';
import { OpenRow, okResponse } from '../http/responses.js';
import type { TypedApp } from '../http/types.js';
import type { Language } from '../i18n/translate.js';
import type { InlineLabel } from '../../src/core/pageSchema.js';
import type { RuleResolver } from '../../src/core/rules.js';
import { machineOf, transitionPatch, transitionRefusal, type Machine, type Refusal } from '../../src/core/stateMachine.js';
import type { ResourceDef } from './definition.js';
import type { ResourceHooks, Row, WriteContext } from './hooks/types.js';
import { getRow, updateRow } from './queries.js';

/** What the resource routes hand the transition route: their scope, their write checks and the hospital's rules. */
export interface TransitionDeps {
  scope(request: FastifyRequest): number[] | undefined;
  context(request: FastifyRequest, id: number): WriteContext;
  /** The row as the resource's item route answers it (with its rule fields). */
  answer(request: FastifyRequest, id: number): Promise<Row>;
  /** The resource's write checks (known fields, the contract over the record the patch makes); the opened fields. */
  checked(request: FastifyRequest, body: Record<string, unknown>, current: Row): Promise<Record<string, unknown>>;
  rulesFor(request: FastifyRequest): Promise<RuleResolver>;
  /** A state's word: its label in the enum of the state column `field`, else the state as it is. */
  stateLabel(field: string, state: string, lang: Language): string;
  /** Where refusals are logged: a broken machine is the hospital's rule, not the request's fault. */
  warn(message: string): void;
}

const Id = Type.Object({ id: Type.Integer({ minimum: 1 }) });
const Body = Type.Object({ transition: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: true });

const word = (label: InlineLabel | undefined, lang: Language, fallback: string) => label?.[lang] ?? label?.['zh-CN'] ?? fallback;

/**
 * A refusal as the translated error the caller gets: 403 without the permission, 422 for the role, the state or the guard.
 * Exported for routes that take a machine's step with another grant than a session (a consultation link's token).
 */
export function refusalError(r: Refusal, name: string, machine: Machine, lang: Language, stateLabel: TransitionDeps['stateLabel']): AppError {
  const transition = word(machine.transitions[name]?.label, lang, name);
  switch (r.reason) {
    case 'unknown': return new AppError(422, 'machine.unknown', { transition: name });
    case 'permission': return forbidden(r.permission);
    case 'role': return new AppError(422, 'machine.role_refused', { transition });
    case 'state': return new AppError(422, 'machine.wrong_state', { transition, state: stateLabel(machine.field, r.state, lang) });
    case 'guard': return new AppError(422, 'machine.guard_refused', { transition, reason: r.message ? word(r.message, lang, '') : 'msg:machine.guard_default' });
  }
}

/**
 * `POST <route>/transition/{id}` `{ transition, ...inputs }` for a resource with a `stateMachine` (src/core/stateMachine.ts):
 * the row in the request's scope (else 404), the transition's permission (403), role rule, starting state and guard
 * (422, translated, naming the step and the state), the inputs the step takes and nothing else, checked by the
 * resource's contract; then one conditional UPDATE (`WHERE <state> = <state read>`): of two parallel steps on one
 * row exactly one wins, the other is a 409 and writes nothing. The operation log records the request like every
 * write (server/http/operation-log.ts). Answers the row as it is now.
 */
export function transitionRoute(app: TypedApp, db: Db, def: ResourceDef, hooks: ResourceHooks | undefined, deps: TransitionDeps): void {
  const set = def.stateMachine;
  if (!set) return;
  app.post(`${def.route}/transition/:id`, {
    config: { access: { permission: def.permissions.read } },
    schema: { tags: [`resource:${def.name}`], params: Id, body: Body, response: okResponse(OpenRow) },
  }, async (request) => {
    const { id } = request.params;
    const { transition: name, ...input } = request.body as { transition: string } & Record<string, unknown>;
    const current = await getRow(db, def, hooks, id, deps.scope(request));
    const resolve = await deps.rulesFor(request);
    const machine = machineOf(set, resolve, deps.warn);
    if (!machine) throw new AppError(500, 'machine.broken');
    const user = request.auth!;
    const actor = { roles: user.identification, granted: (code: string) => hasPermission(user, code), hospital: workingHospital(request), id: user.id };
    const now = new Date().toISOString();
    const refusal = transitionRefusal(set, machine, name, { record: current, actor, input, now }, resolve, deps.warn);
    if (refusal) throw refusalError(refusal, name, machine, request.lang, deps.stateLabel);
    const step = machine.transitions[name];
    const extra = Object.keys(input).find((f) => !step.inputs?.includes(f));
    if (extra) throw new AppError(422, 'machine.input_refused', { transition: word(step.label, request.lang, name), field: extra });
    const opened = Object.keys(input).length ? await deps.checked(request, input, current) : {};
    await updateRow(db, def, hooks, id, opened, { ...deps.context(request, id), transition: name }, {
      set: transitionPatch(machine, name, { userId: user.id, now }),
      expect: { column: machine.field, value: current[machine.field] },
    });
    return ok(await deps.answer(request, id));
  });
}
