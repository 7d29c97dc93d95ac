import { useContext, useEffect, useMemo, useState } from 'react';
import { api, unwrap } from '../api/client';
import { ruleResolver, warnOnce, type RuleResolver, type RuleSet } from '../core/rules';
import { RuleResolverContext } from './form/ruleResolverContext';
import type { SchemaVersion } from './schemaApi';

/** A rule set as the hospital sees it (GET /api/rules): the base with the hospital's override. */
export interface LayeredRuleSet { alias: string; version: number; schema: RuleSet }

const enc = encodeURIComponent;
let rulesPromise: Promise<LayeredRuleSet[]> | null = null;

/** Every rule set of the working hospital, once per session (a hospital switch reloads the app). */
export function loadRules(): Promise<LayeredRuleSet[]> {
  if (!rulesPromise) {
    rulesPromise = unwrap<LayeredRuleSet[]>(api.get('/rules', { silent: true }));
    rulesPromise.catch(() => { rulesPromise = null; });
  }
  return rulesPromise;
}
/** After the schema editor saves or rolls back a rule set, the next page reads the new version. */
export const forgetRules = () => { rulesPromise = null; };

/** Browser warnings of the evaluator, once each (spec §5: a broken rule falls back to empty). */
const warn = warnOnce((m) => console.warn(`[rules] ${m}`));

/**
 * The hospital's rule resolver, or undefined while loading. A failed load resolves nothing, so
 * rules fall back (spec §5) rather than the page failing.
 */
export function useRuleSets(skip = false): RuleResolver | undefined {
  const [sets, setSets] = useState<LayeredRuleSet[] | null>(null);
  useEffect(() => {
    if (skip) return;
    let live = true;
    loadRules().then((s) => live && setSets(s), () => live && setSets([]));
    return () => { live = false; };
  }, [skip]);
  return useMemo(() => (sets ? ruleResolver(sets.map((s) => s.schema), warn) : undefined), [sets]);
}

/** The rules of the surrounding RulesProvider, or loaded here for a page outside one. */
export function useRules(): RuleResolver | undefined {
  const provided = useContext(RuleResolverContext);
  const loaded = useRuleSets(!!provided);
  return provided ?? loaded;
}

export const fetchRuleVersions = (name: string) => unwrap<SchemaVersion[]>(api.get(`/rules/${enc(name)}/versions`));
export const fetchRuleBase = (name: string) => unwrap<RuleSet>(api.get(`/rules/${enc(name)}/base`));
export const fetchRuleSet = (name: string) => unwrap<LayeredRuleSet>(api.get(`/rules/${enc(name)}`));
export const saveRuleOverride = (name: string, override: Record<string, unknown>) =>
  unwrap<LayeredRuleSet>(api.put(`/rules/${enc(name)}`, { override }, { silent: true }));
export const rollbackRuleSet = (name: string, version: number) =>
  unwrap<LayeredRuleSet>(api.post(`/rules/${enc(name)}/rollback`, { version }));
