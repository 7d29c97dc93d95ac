import { isAdmin } from './admin.js';
import { ruleHolds, type RuleResolver } from './formRules.js';
import type { ActionKind, ActionSchema } from './pageSchema.js';
import { machineOf, splitTransition, transitionRefusal } from './stateMachine.js';

/** What an action check needs to know about the signed-in user (spec §3 User: identification, permission). */
export interface Grants {
  identification: readonly string[];
  /** The names of the user's roles (an administrator may be known by name, src/core/admin.ts). */
  roleNames?: readonly string[];
  permission: readonly string[];
  /** The hospital the user works in (a state machine's rules read it, src/core/stateMachine.ts). */
  hospital?: number;
  /** The user's id: a step's rule may name the one a record names (`me`, src/core/stateMachine.ts). */
  userId?: number;
}

/** Spec §6: an administrator may do everything; otherwise the permission code must be granted. */
export function isGranted(code: string | undefined, grants: Grants | null | undefined): boolean {
  if (!code) return true;
  if (!grants) return false;
  return isAdmin(grants) || grants.permission.includes(code);
}

/** The resource permission each action kind needs besides its own code. */
export function resourcePermission(kind: ActionKind, perms?: { read: string; create: string; update: string; delete: string }): string | undefined {
  if (!perms) return undefined;
  switch (kind) {
    case 'create': return perms.create;
    case 'edit': case 'patch': return perms.update;
    case 'delete': return perms.delete;
    case 'detail': return perms.read;
    default: return undefined;
  }
}

/** Whether the user holds one of the action's roles (none listed: every role; an administrator: always). */
export function roleSees(action: Pick<ActionSchema, 'roles'>, grants: Grants | null | undefined): boolean {
  if (!action.roles?.length) return true;
  if (!grants) return false;
  return isAdmin(grants) || action.roles.some((r) => grants.identification.includes(r));
}

/**
 * An action is shown when the user holds its codes and one of its roles, and its json-logic visibleIf holds for the row;
 * `resolve` gives the named rules (`{ "rule": "<set>.<name>" }`) it may refer to.
 */
export function actionVisible(action: ActionSchema, row: Record<string, unknown> | null, grants: Grants | null | undefined,
  perms?: { read: string; create: string; update: string; delete: string }, resolve?: RuleResolver): boolean {
  if (!isGranted(action.permission, grants) || !isGranted(resourcePermission(action.kind, perms), grants) || !roleSees(action, grants)) return false;
  if (action.transition !== undefined && !transitionOpen(action.transition, row, grants, resolve)) return false;
  if (action.visibleIf === undefined) return true;
  return ruleHolds(action.visibleIf, row ?? {}, false, resolve);
}

/**
 * A state machine step (`<set>.<step>`) the user may take on the row as the rule file has it: its permission, role rule,
 * starting state and guard (the guard without the answers a prompt would add). No row (a toolbar) or no rules: hidden.
 */
export function transitionOpen(ref: string, row: Record<string, unknown> | null, grants: Grants | null | undefined, resolve?: RuleResolver): boolean {
  const step = splitTransition(ref);
  const machine = step && resolve ? machineOf(step.set, resolve) : undefined;
  if (!step || !machine || !row || !grants) return false;
  const actor = { roles: grants.identification, granted: (code: string) => isGranted(code, grants), hospital: grants.hospital, id: grants.userId ?? null };
  const refusal = transitionRefusal(step.set, machine, step.name, { record: row, actor }, resolve!);
  // A guard may read what the prompt asks (a reason): the server judges it with the answer.
  return !refusal || (refusal.reason === 'guard' && !!machine.transitions[step.name].inputs?.length);
}

/** `/manage/system/user/{id}` with row { id: 5 } → `/manage/system/user/5` (values URL-encoded; missing ones empty). */
export function fillTemplate(template: string, row: Record<string, unknown>): string {
  return template.replace(/\{(\w+)\}/g, (_, key: string) => {
    const v = row[key];
    return v === undefined || v === null ? '' : encodeURIComponent(String(v));
  });
}
