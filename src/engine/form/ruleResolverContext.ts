import { createContext, useContext } from 'react';
import type { RuleResolver } from '../../core/formRules';

/**
 * The named rules (`{ "rule": "<name>" }`) the page forms of this hospital may refer to. Whoever loads
 * the rule sets provides it; without a provider a reference cannot be evaluated, and the form rules
 * then fall back to the stricter side (see formView).
 */
export const RuleResolverContext = createContext<RuleResolver | undefined>(undefined);

export const useRuleResolver = () => useContext(RuleResolverContext);
