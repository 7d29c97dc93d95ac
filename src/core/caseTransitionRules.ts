import type { Transition } from './caseLifecycle.js';
import { evaluateNamed, type RuleResolver, type Warn } from './rules.js';

/**
 * Whether an actor with these role codes may run `transition` on the case (schemas/rules/case-transitions.json,
 * overridable per hospital). A missing or failing rule refuses: a broken rule must make the lab stricter, not open.
 */
export function mayRunTransition(transition: Transition, roles: string[], caseRow: Record<string, unknown> | null, resolve: RuleResolver, warn?: Warn): boolean {
  return evaluateNamed(`case-transitions.${transition}`, { roles, case: caseRow ?? {} }, { resolve, fallback: false, warn }) === true;
}
