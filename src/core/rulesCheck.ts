import { Ajv, type ValidateFunction } from 'ajv';
import metaSchema from '../../schemas/meta/rule.schema.json';
import { searchOperatorProblems } from './customSearch.js';
import { logicCostProblems } from './ruleCost.js';
import { logicProblems, ruleResolver, type RuleProblem, type RuleResolver, type RuleSet } from './rules.js';
import { machineSetProblems } from './stateMachine.js';

let validate: ValidateFunction | undefined;

/** Checks a set can promise more than the meta-schema: what its rules must return. */
const SET_CHECKS: Record<string, (set: RuleSet, resolve: RuleResolver) => RuleProblem[]> = {
  'search-operators': searchOperatorProblems,
};

/**
 * Everything that makes a rule set unusable, as JSON pointers: the meta-schema
 * (schemas/meta/rule.schema.json), operations json-logic does not have (or we refuse), malformed
 * references, references that do not resolve among `others` and the set itself, a cost visibly past
 * what an evaluation may do (ruleCost.ts, with references expanded), and the set's own promise
 * (search operators must be operators the server executes; a state machine's transitions need their rules, stateMachine.ts).
 * The server refuses such a file at start and such an override at save; the schema editor shows them as typed.
 */
export function checkRuleSet(set: unknown, others: RuleSet[] = []): RuleProblem[] {
  const problems = checkRuleShape(set);
  if (problems.length) return problems;
  const ruleSet = set as RuleSet;
  const sets = [...others.filter((o) => o.name !== ruleSet.name), ruleSet];
  const references = referenceProblems(sets);
  if (references.length) return references;
  const machine = machineSetProblems(ruleSet.rules);
  if (machine.length) return machine;
  return SET_CHECKS[ruleSet.name]?.(ruleSet, ruleResolver(sets, () => undefined)) ?? [];
}

/** The meta-schema and the json-logic of each rule, without looking at other sets. */
export function checkRuleShape(set: unknown): RuleProblem[] {
  validate ??= new Ajv({ allErrors: true, strict: false }).compile(metaSchema);
  if (!validate(set)) {
    return (validate.errors ?? []).map((e) => ({
      path: e.instancePath || '/',
      message: e.keyword === 'additionalProperties' ? `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"` : e.message ?? e.keyword,
    }));
  }
  return Object.entries((set as RuleSet).rules).flatMap(([name, logic]) => {
    const structure = logicProblems(logic, `/rules/${name}`);
    // Costed only once well-formed: the estimate walks the rule as deep as it goes.
    return structure.length ? structure : logicCostProblems(logic, `/rules/${name}`);
  });
}

/**
 * References that do not resolve across `sets` (a missing rule, a cycle), and rules whose cost with their
 * references expanded is visibly too high. The last set is the one being saved: its problems are JSON
 * pointers into it, the others' are named `<set>.<rule>`.
 */
export function referenceProblems(sets: RuleSet[]): RuleProblem[] {
  const own = sets[sets.length - 1];
  const problems: RuleProblem[] = [];
  let current = '';
  const resolve = ruleResolver(sets, (message) => problems.push({ path: current, message }));
  for (const set of sets) {
    for (const rule of Object.keys(set.rules)) {
      current = set === own ? `/rules/${rule}` : `${set.name}.${rule}`;
      const expanded = resolve(`${set.name}.${rule}`);
      if (expanded !== undefined) problems.push(...logicCostProblems(expanded, current));
    }
  }
  return problems;
}
