import type { InlineLabel } from './pageSchema.js';
import { evaluateRule, type RuleResolver, type Warn } from './rules.js';

/**
 * Rules a resource's every write must pass, over the row as it was and as it would be (`"writeGuards"` in
 * schemas/resources): what a form's checks cannot say because it depends on the stored row or the day, such as "a
 * past day's duty is not changed" (spec §5). Each guard names a rule (`<set>.<name>`) evaluated on
 * `{ operation, record, old, now, today, roles }`: `operation` is create, update or delete; `record` the row the
 * write makes (null on delete), `old` the stored row (null on create); `now` (ISO time) and `today` (YYYY-MM-DD) are
 * the request's, since json-logic has no clock. A guard that does not hold, or cannot be evaluated, refuses the
 * write with its message, on the field it names. The server applies them on store, update and destroy
 * (server/resources/routes.ts); the browser's form may ask the same question before it sends.
 */
export interface WriteGuard {
  rule: string;
  message: InlineLabel;
  /** The field the refusal is shown on (a form marks it); default: the whole write. */
  field?: string;
}

export type WriteOperation = 'create' | 'update' | 'delete';

export interface WriteGuardInput {
  operation: WriteOperation;
  record: Record<string, unknown> | null;
  old: Record<string, unknown> | null;
  now: string;
  roles?: readonly string[];
}

/** The data a guard reads. */
export const writeGuardData = (input: WriteGuardInput) =>
  ({ operation: input.operation, record: input.record, old: input.old, now: input.now, today: input.now.slice(0, 10), roles: input.roles ?? [] });

/** The first guard that does not hold for this write, or undefined when all hold. */
export function writeGuardRefusal(guards: readonly WriteGuard[] | undefined, input: WriteGuardInput, resolve: RuleResolver, warn?: Warn): WriteGuard | undefined {
  if (!guards?.length) return undefined;
  const data = writeGuardData(input);
  return guards.find((g) => !truthy(evaluateRule({ rule: g.rule }, data, { resolve, fallback: false, warn })));
}

// json-logic truthiness: an empty list is false, as `!!` says in a rule.
const truthy = (v: unknown) => (Array.isArray(v) ? v.length > 0 : !!v);
