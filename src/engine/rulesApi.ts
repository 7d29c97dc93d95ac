import { useContext, useEffect, useMemo, useState } from 'react';
import { api, unwrap } from '../api/client';
import { ruleResolver, warnOnce, type RuleResolver, type RuleSet } from '../core/rules';
import { RuleResolverContext } from './form/ruleResolverContext';
import type { SchemaVersion } from './schemaApi';
import { useSession } from '../store/session';
import { createCache, scopedKey } from './cache';

/** A rule set as the hospital sees it (GET /api/rules): the base with the hospital's override. */
export interface LayeredRuleSet { alias: string; version: number; schema: RuleSet }

const enc = encodeURIComponent;
/** The working hospital: its overrides are part of the rule sets the server answers with. */
const rulesKey = () => scopedKey(useSession.getState().hospitalId, 'rules');
const ruleSets = createCache<LayeredRuleSet[]>();

/** Every rule set of the working hospital, once per hospital (the cache keys by it). */
export const loadRules = (): Promise<LayeredRuleSet[]> =>
  ruleSets.get(rulesKey(), () => unwrap<LayeredRuleSet[]>(api.get('/rules', { silent: true })));
/** After the schema editor saves or rolls back a rule set, the next page reads the new version. */
export const forgetRules = () => ruleSets.forget(() => true);

/** Browser warnings of the evaluator, once each (spec §5: a broken rule falls back to empty). */
const warn = warnOnce((m) => console.warn(`[rules] ${m}`));

/** One resolver per loaded answer: every page of a hospital shares it instead of compiling its own. */
const resolvers = new WeakMap<LayeredRuleSet[], RuleResolver>();
const NONE: LayeredRuleSet[] = [];
const resolverOf = (sets: LayeredRuleSet[]) => {
  let r = resolvers.get(sets);
  if (!r) resolvers.set(sets, (r = ruleResolver(sets.map((s) => s.schema), warn)));
  return r;
};

/**
 * The hospital's rule resolver, or undefined while loading. A failed load resolves nothing, so
 * rules fall back (spec §5) rather than the page failing. Rule sets already here resolve in the
 * first render (no loading frame on a page change).
 */
export function useRuleSets(skip = false): RuleResolver | undefined {
  const hospitalId = useSession((st) => st.hospitalId);
  const [loaded, setLoaded] = useState<{ key: string; sets: LayeredRuleSet[] } | null>(null);
  const key = scopedKey(hospitalId, 'rules');
  const sets = (loaded?.key === key ? loaded.sets : undefined) ?? (skip ? undefined : ruleSets.peek(key));
  useEffect(() => {
    // Asked by whether this render had them, not by whether the cache has them now: an answer that landed after
    // the render read the cache and before this effect ran (a busy browser runs effects a task later) was then
    // never drawn, and the page stayed on its spinner for good. A settled load answers at once.
    if (skip || sets) return;
    let live = true;
    loadRules().then((s) => live && setLoaded({ key, sets: s }), () => live && setLoaded({ key, sets: NONE }));
    return () => { live = false; };
  }, [skip, key, sets]);
  return useMemo(() => (sets ? resolverOf(sets) : undefined), [sets]);
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
export const saveRuleOverride = (name: string, override: Record<string, unknown>, note?: string) =>
  unwrap<LayeredRuleSet>(api.put(`/rules/${enc(name)}`, { override, ...(note ? { note } : {}) }, { silent: true }));
export const rollbackRuleSet = (name: string, version: number) =>
  unwrap<LayeredRuleSet>(api.post(`/rules/${enc(name)}/rollback`, { version }));
