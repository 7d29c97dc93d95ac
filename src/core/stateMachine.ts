import type { InlineLabel } from './pageSchema.js';
import { evaluateRule, type RuleResolver, type Warn } from './rules.js';

/**
 * A state machine for any resource, declared in a rule file (schemas/rules/<set>.json) as the literal rule `machine`
 * beside the json-logic it names, and layered per hospital like every rule set (a hospital may change who takes a
 * step, not the code that runs it). The resource names the set (`"stateMachine": "<set>"`); the server's generic
 * transition route (server/resources/transitions.ts) and the browser's `transition` action both ask this module, so
 * a button is shown exactly where the server would accept it. The case lifecycle's roles follow the same convention
 * (schemas/rules/case-transitions.json: one rule per transition, data { roles, … }, a missing rule refuses).
 *
 * - `machine.field`: the column holding the state; `states`: every state it may hold; `initial`: a new row's, and
 *   `initialSets` the columns a new row is given with it (`$me`, `$now`, `$today` as in a transition's `sets`).
 * - `machine.transitions.<name>`: `from` (states it starts from), `to`, `label` (both languages: the refusals name it),
 *   `permission` (a code the actor must hold besides the resource's read), `sets` (columns written with it:
 *   `"$me"` the actor's id, `"$now"` the time, `"$today"` the date, anything else as written), `inputs` (columns the
 *   request may carry with it, checked by the resource's write contract), `guard` + `guardMessage` (a rule of the set
 *   that must hold, and what the refusal says when it does not).
 * - `rules.<name>`: who may take transition `<name>`, json-logic over { roles, hospital, me, record } (`hospital`: the one
 *   the actor works in, so a transport's receiving hospital alone signs it; `me`: the actor's user id, null for an actor
 *   without an account, as a consultation link's holder). Missing or failing: refused
 *   (a broken rule makes the department stricter, not open).
 */
export interface MachineTransition {
  from: string[];
  to: string;
  label: InlineLabel;
  permission?: string;
  sets?: Record<string, unknown>;
  inputs?: string[];
  guard?: string;
  guardMessage?: InlineLabel;
}

export interface Machine {
  field: string;
  states: string[];
  initial?: string;
  initialSets?: Record<string, unknown>;
  transitions: Record<string, MachineTransition>;
}

export interface Actor {
  /** Role codes (identification). */
  roles: readonly string[];
  /** Whether the actor holds a permission code (an administrator holds every one). */
  granted(code: string): boolean;
  /** The hospital the actor works in (rules read it as `hospital`). */
  hospital?: number;
  /** The actor's user id, so a rule can say "the one the record names" (a consultation's colleague); absent: none. */
  id?: number | null;
}

export type Refusal =
  | { reason: 'unknown' }
  | { reason: 'permission'; permission: string }
  | { reason: 'role' }
  | { reason: 'state'; state: string }
  | { reason: 'guard'; message?: InlineLabel };

const NAME = /^[a-z][a-z0-9_]{0,63}$/;
const isLabel = (l: unknown): l is InlineLabel => !!l && typeof l === 'object' && typeof (l as Record<string, unknown>)['zh-CN'] === 'string' && typeof (l as Record<string, unknown>)['en-US'] === 'string';
const isNames = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string' && NAME.test(x));

const validSets = (sets: unknown, known: (c: string) => boolean, field: unknown) =>
  !!sets && typeof sets === 'object' && !Array.isArray(sets) && Object.keys(sets).every((c) => NAME.test(c) && known(c) && c !== field);

/** What is wrong with a machine declaration (empty: nothing); `columns`, when given, are the resource's. */
export function machineProblems(value: unknown, columns?: readonly string[]): string[] {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return ['machine: an object with field, states and transitions'];
  const m = value as Partial<Machine>;
  const out: string[] = [];
  const known = (c: string) => !columns || columns.includes(c);
  if (typeof m.field !== 'string' || !NAME.test(m.field) || !known(m.field)) out.push('machine.field: a column of the resource');
  if (!isNames(m.states) || !m.states.length) out.push('machine.states: a list of state names');
  const states = new Set(isNames(m.states) ? m.states : []);
  if (m.initial !== undefined && !states.has(m.initial)) out.push('machine.initial: one of the states');
  if (m.initialSets !== undefined && (m.initial === undefined || !validSets(m.initialSets, known, m.field))) out.push('machine.initialSets: columns of the resource other than the state, with an initial state');
  if (!m.transitions || typeof m.transitions !== 'object' || !Object.keys(m.transitions).length) return [...out, 'machine.transitions: at least one'];
  for (const [name, t] of Object.entries(m.transitions)) {
    const at = `machine.transitions.${name}`;
    if (!NAME.test(name)) out.push(`${at}: a lower-case name`);
    if (!t || typeof t !== 'object') { out.push(`${at}: an object`); continue; }
    if (!isNames(t.from) || !t.from.length || t.from.some((s) => !states.has(s))) out.push(`${at}.from: states of the machine`);
    if (typeof t.to !== 'string' || !states.has(t.to)) out.push(`${at}.to: a state of the machine`);
    if (!isLabel(t.label)) out.push(`${at}.label: zh-CN and en-US`);
    if (t.permission !== undefined && (typeof t.permission !== 'string' || !t.permission)) out.push(`${at}.permission: a permission code`);
    if (t.sets !== undefined && !validSets(t.sets, known, m.field)) out.push(`${at}.sets: columns of the resource other than the state`);
    if (t.inputs !== undefined && (!isNames(t.inputs) || t.inputs.some((c) => !known(c) || c === m.field))) out.push(`${at}.inputs: columns of the resource other than the state`);
    if (t.guard !== undefined && (typeof t.guard !== 'string' || !/^[A-Za-z][A-Za-z0-9_-]{0,63}$/.test(t.guard))) out.push(`${at}.guard: a rule name of the set`);
    if (t.guardMessage !== undefined && !isLabel(t.guardMessage)) out.push(`${at}.guardMessage: zh-CN and en-US`);
  }
  return out;
}

/** The machine of rule set `set` as the hospital has it; undefined when missing or malformed (every transition refused). */
export function machineOf(set: string, resolve: RuleResolver, warn?: Warn): Machine | undefined {
  const value = resolve(`${set}.machine`);
  const problems = machineProblems(value);
  if (problems.length) {
    warn?.(`rule ${set}.machine: ${problems.join('; ')}`);
    return undefined;
  }
  return value as Machine;
}

export interface TransitionData {
  record: Record<string, unknown>;
  actor: Actor;
  /** The fields sent with the transition (guards may read them as `input`). */
  input?: Record<string, unknown>;
  /** ISO time of the request (guards read `now` and `today`). */
  now?: string;
}

const ruleData = (d: TransitionData) => {
  const now = d.now ?? new Date().toISOString();
  return { roles: [...d.actor.roles], hospital: d.actor.hospital ?? null, me: d.actor.id ?? null, record: d.record, input: d.input ?? {}, now, today: now.slice(0, 10) };
};

/**
 * Why the actor may not take `name` on the record now (undefined: they may). Checked in this order: the transition
 * exists, its permission, the role rule, the record's state, the guard.
 */
export function transitionRefusal(set: string, machine: Machine, name: string, d: TransitionData, resolve: RuleResolver, warn?: Warn): Refusal | undefined {
  const t = Object.hasOwn(machine.transitions, name) ? machine.transitions[name] : undefined;
  if (!t) return { reason: 'unknown' };
  if (t.permission && !d.actor.granted(t.permission)) return { reason: 'permission', permission: t.permission };
  const data = ruleData(d);
  if (evaluateRule({ rule: `${set}.${name}` }, data, { resolve, fallback: false, warn }) !== true) return { reason: 'role' };
  const state = String(d.record[machine.field] ?? '');
  if (!t.from.includes(state)) return { reason: 'state', state };
  if (t.guard && evaluateRule({ rule: `${set}.${t.guard}` }, data, { resolve, fallback: false, warn }) !== true) return { reason: 'guard', message: t.guardMessage };
  return undefined;
}

/** The transitions the actor may take on the record now, in the machine's order. */
export function allowedTransitions(set: string, machine: Machine, d: TransitionData, resolve: RuleResolver, warn?: Warn): string[] {
  return Object.keys(machine.transitions).filter((name) => !transitionRefusal(set, machine, name, d, resolve, warn));
}

type Who = { userId: number | null; now: string };
const filled = (sets: Record<string, unknown> | undefined, who: Who) => {
  const value = (v: unknown) => (v === '$me' ? who.userId : v === '$now' ? who.now : v === '$today' ? who.now.slice(0, 10) : v);
  return Object.fromEntries(Object.entries(sets ?? {}).map(([c, v]) => [c, value(v)]));
};

/** The columns a transition writes: the new state and its `sets`, with `$me`, `$now` and `$today` filled in. */
export function transitionPatch(machine: Machine, name: string, who: Who): Record<string, unknown> {
  return { [machine.field]: machine.transitions[name].to, ...filled(machine.transitions[name].sets, who) };
}

/** The columns a new row is given: the initial state and `initialSets` (who made it and when); none without an initial state. */
export function initialPatch(machine: Machine, who: Who): Record<string, unknown> {
  return machine.initial === undefined ? {} : { [machine.field]: machine.initial, ...filled(machine.initialSets, who) };
}

/** `set.name` → its two parts; undefined for anything else. */
export function splitTransition(ref: string | undefined): { set: string; name: string } | undefined {
  const m = ref ? /^([a-z][a-z0-9-]{0,47})\.([a-z][a-z0-9_]{0,63})$/.exec(ref) : null;
  return m ? { set: m[1], name: m[2] } : undefined;
}

/**
 * A rule set holding a `machine`: the machine well-formed, and a role rule for each transition and each guard it
 * names in the set (JSON pointers; the rule check runs it at start and when a hospital saves an override).
 */
export function machineSetProblems(rules: Record<string, unknown>): { path: string; message: string }[] {
  if (!Object.hasOwn(rules, 'machine')) return [];
  const problems = machineProblems(rules.machine).map((message) => ({ path: '/rules/machine', message }));
  if (problems.length) return problems;
  const machine = rules.machine as Machine;
  for (const [name, t] of Object.entries(machine.transitions)) {
    if (!Object.hasOwn(rules, name)) problems.push({ path: `/rules/${name}`, message: `transition ${name} needs a rule saying who may take it` });
    if (t.guard && !Object.hasOwn(rules, t.guard)) problems.push({ path: `/rules/${t.guard}`, message: `the guard of ${name} is not a rule of the set` });
  }
  return problems;
}
