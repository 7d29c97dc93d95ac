import type { InlineLabel } from './pageSchema.js';
import { applyBounded, RuleCostError } from './ruleBudget.js';
import { RULE_OPERATIONS } from './ruleOperations.js';

/**
 * Rules as data (schemas/rules/<set>.json, checked by schemas/meta/rule.schema.json): named json-logic,
 * layered per hospital like page schemas. A page, the custom search or the case status refers to a
 * rule as `{ "rule": "<set>.<rule>" }`, alone or inside other json-logic. This module is the one
 * evaluator on server and browser: a rule that is missing, malformed or throws falls back to the
 * caller's empty value with one warning (spec §5). The one exception is a rule that exceeds the work an
 * evaluation may do (ruleBudget.ts): it throws RuleCostError, so the request (or the page part) stops
 * with a translated message instead of showing a value the hospital's rule never gave.
 */
export interface RuleSet {
  name: string;
  description: InlineLabel;
  rules: Record<string, unknown>;
}

/** `set.rule` → the rule's json-logic with every reference inside it already substituted, or undefined. */
export type RuleResolver = (name: string) => unknown;
export type Warn = (message: string) => void;

/** A reference: exactly `{ "rule": "<set>.<rule>" }`. */
export function ruleRef(logic: unknown): string | undefined {
  if (!logic || typeof logic !== 'object' || Array.isArray(logic)) return undefined;
  const keys = Object.keys(logic);
  const name = (logic as { rule?: unknown }).rule;
  return keys.length === 1 && keys[0] === 'rule' && typeof name === 'string' ? name : undefined;
}

const MAX_DEPTH = 32;
const REF = /^([a-z][a-z0-9-]{0,47})\.([A-Za-z][A-Za-z0-9_-]{0,63})$/;

export interface RuleProblem { path: string; message: string }

/** What is wrong with a piece of json-logic before it runs: unknown operations, malformed references, depth. */
export function logicProblems(logic: unknown, path = ''): RuleProblem[] {
  const out: RuleProblem[] = [];
  const walk = (node: unknown, at: string, depth: number) => {
    if (depth > MAX_DEPTH) {
      out.push({ path: at || '/', message: `nested deeper than ${MAX_DEPTH}` });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((n, i) => walk(n, `${at}/${i}`, depth + 1));
      return;
    }
    if (!node || typeof node !== 'object') return;
    const keys = Object.keys(node);
    // json-logic treats only one-key objects as operations; others are literal data.
    if (keys.length !== 1) return;
    const op = keys[0];
    const args = (node as Record<string, unknown>)[op];
    if (op === 'rule') {
      if (typeof args !== 'string' || !REF.test(args)) out.push({ path: `${at}/rule`, message: 'a rule reference is "<set>.<rule>"' });
      return;
    }
    if (!RULE_OPERATIONS.has(op)) {
      out.push({ path: `${at}/${op}`, message: `unknown operation "${op}"` });
      return;
    }
    walk(args, `${at}/${op}`, depth + 1);
  };
  walk(logic, path, 0);
  return out;
}

/** Thrown inside the evaluator only; callers see the fallback value and a warning. */
class RuleError extends Error {}

/**
 * Substitutes every reference in `logic` through `lookup` (the unexpanded rule by name). A missing
 * rule, a cycle or a chain deeper than MAX_DEPTH throws a RuleError naming the reference.
 */
function expand(logic: unknown, lookup: (name: string) => unknown, chain: string[] = []): unknown {
  const name = ruleRef(logic);
  if (name !== undefined) {
    if (chain.includes(name)) throw new RuleError(`rule ${name} refers to itself (${[...chain, name].join(' → ')})`);
    if (chain.length >= MAX_DEPTH) throw new RuleError(`rule ${name}: references nested deeper than ${MAX_DEPTH}`);
    const target = lookup(name);
    if (target === undefined) throw new RuleError(`rule ${name} does not exist`);
    return expand(target, lookup, [...chain, name]);
  }
  if (Array.isArray(logic)) return logic.map((l) => expand(l, lookup, chain));
  if (logic && typeof logic === 'object' && Object.keys(logic).length === 1) {
    const [op, args] = Object.entries(logic)[0];
    return { [op]: expand(args, lookup, chain) };
  }
  return logic;
}

const split = (name: string): [string, string] | undefined => {
  const m = REF.exec(name);
  return m ? [m[1], m[2]] : undefined;
};

/** Warns once per message: a broken rule on a list of 500 rows is one line in the log, not 500. */
export function warnOnce(warn: Warn = (m) => console.warn(`[rules] ${m}`)): Warn {
  const seen = new Set<string>();
  return (m) => {
    if (seen.size > 1000 || seen.has(m)) return;
    seen.add(m);
    warn(m);
  };
}

/**
 * The resolver over a hospital's layered rule sets. It hands back rules with their references
 * expanded, so a caller that only looks names up (the form rules) gets nested references for free;
 * a rule that cannot be expanded or has problems resolves to undefined, with a warning.
 */
export function ruleResolver(sets: Iterable<RuleSet> | Record<string, RuleSet>, warn: Warn = warnOnce()): RuleResolver {
  const byName = new Map<string, RuleSet>();
  for (const set of Symbol.iterator in sets ? (sets as Iterable<RuleSet>) : Object.values(sets)) byName.set(set.name, set);
  const lookup = (name: string) => {
    const parts = split(name);
    if (!parts) return undefined;
    const rules = byName.get(parts[0])?.rules;
    return rules && Object.hasOwn(rules, parts[1]) ? rules[parts[1]] : undefined;
  };
  const cache = new Map<string, { logic: unknown }>();
  return (name) => {
    let hit = cache.get(name);
    if (!hit) {
      hit = { logic: undefined };
      try {
        if (lookup(name) === undefined) throw new RuleError(`rule ${name} does not exist`);
        const logic = expand({ rule: name }, lookup);
        const problems = logicProblems(logic);
        if (problems.length) throw new RuleError(`rule ${name}: ${problems.map((p) => `${p.path} ${p.message}`).join('; ')}`);
        hit.logic = logic;
      } catch (e) {
        warn(e instanceof RuleError ? e.message : `rule ${name}: ${(e as Error).message}`);
      }
      cache.set(name, hit);
    }
    return hit.logic;
  };
}

/** A resolver that knows no rules: every reference falls back. */
export const noRules: RuleResolver = () => undefined;

export interface EvaluateOptions<T> {
  resolve?: RuleResolver;
  /** What the caller gets when the rule is missing, malformed or throws. */
  fallback: T;
  warn?: Warn;
}

/**
 * Evaluates json-logic (inline, a reference, or inline with references inside) against `data`.
 * Every failure is the fallback plus a warning, except RuleCostError (thrown on: see the module comment).
 */
export function evaluateRule<T>(logic: unknown, data: unknown, { resolve = noRules, fallback, warn = defaultWarn }: EvaluateOptions<T>): unknown {
  try {
    const expanded = expand(logic, resolve);
    const problems = logicProblems(expanded);
    if (problems.length) throw new RuleError(problems.map((p) => `${p.path || '/'} ${p.message}`).join('; '));
    return applyBounded(expanded, data);
  } catch (e) {
    if (e instanceof RuleCostError) throw e;
    warn(e instanceof RuleError ? e.message : `rule failed: ${(e as Error).message}`);
    return fallback;
  }
}

const defaultWarn = warnOnce();

/** A rule referenced by name, evaluated; `fallback` when it is missing or fails. */
export const evaluateNamed = <T>(name: string, data: unknown, options: EvaluateOptions<T>) => evaluateRule({ rule: name }, data, options);
