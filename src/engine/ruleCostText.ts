import type { TFunction } from 'i18next';
import { RULE_LIMITS, RuleCostError } from '../core/ruleBudget';

/** The translated words for a rule stopped at its work limit (src/core/ruleBudget.ts), or undefined for any other error. */
export function ruleCostText(t: TFunction, error: unknown): string | undefined {
  if (!(error instanceof RuleCostError)) return undefined;
  return t('engine.ruleTooCostly', { limit: t(`engine.ruleLimit.${error.limit}`), max: RULE_LIMITS[error.limit] });
}
