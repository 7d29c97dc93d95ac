import { Spinner } from '@fluentui/react-components';
import type { ReactNode } from 'react';
import { RuleResolverContext } from './form/ruleResolverContext';
import { useRuleSets } from './rulesApi';

/**
 * Gives a schema page the hospital's named rules (schemas/rules, layered): forms' `{ "rule": … }`,
 * the custom search's operators. The page waits for them (one cached request), so a form never
 * shows with a rule it could not yet resolve.
 */
export function RulesProvider({ children }: { children: ReactNode }) {
  const resolve = useRuleSets();
  if (!resolve) return <Spinner data-testid="engine-loading" />;
  return <RuleResolverContext.Provider value={resolve}>{children}</RuleResolverContext.Provider>;
}
