import { useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import type { SearchOption } from '../core/pageSchema';
import { optionLabel } from '../core/optionLabel';
import { createCache, scopedKey } from './cache';
import { onWrite } from '../api/client';
import { httpDataProvider, resourceUrl } from './dataProvider';
import { usePreload } from './preload';
import { loadEnums, loadResources, peekEnums, peekResources, type EnumOption, type Enums } from './schemaApi';
import type { Choice } from '../widgets/search/choices';
import { loadLookup, LOOKUP } from './optionSources';
import { useSession } from '../store/session';
import { useLabel } from '../widgets/useLabel';

const RESOURCE = 'resource:';
/**
 * Rows of a resource as options, per hospital, resource and show-all-data state. Kept a minute: this
 * browser's own writes drop them at once (below); a minute bounds how long another person's new
 * role or label can stay out of a select.
 */
const OPTIONS_MAX_AGE_MS = 60_000;
const resourceOptions = createCache<EnumOption[]>(OPTIONS_MAX_AGE_MS);
type Scope = 'one' | 'all';
const optionsKey = (name: string, scope: Scope) => scopedKey(useSession.getState().hospitalId, 'options', name, scope);
/** `resource:<name>` or `resource:<name>:<column>`: the option values are the rows' `column` instead of the resource's optionValue (a case's id, not its number). */
const sourceOf = (source: string) => { const [name, column] = source.split(':'); return { name, column }; };
const nameOf = (key: string) => sourceOf(key.split('|')[2]).name;

/**
 * Rows of a resource as options: GET `${route}/lists?page_size=1000`, label and value columns from GET /api/resources.
 * Cached per show-all-data state, since the answer differs with the switch on; `workingHospital` ignores the switch.
 */
function loadResourceOptions(name: string, workingHospital = false, silent = false): Promise<EnumOption[]> {
  const all = useSession.getState().showAllData && !workingHospital;
  return resourceOptions.get(optionsKey(name, all ? 'all' : 'one'), async () => {
    const source = sourceOf(name);
    const res = (await loadResources()).find((r) => r.name === source.name);
    if (!res) return [];
    const list = await httpDataProvider.getList(res, { pagination: { current: 1, pageSize: 1000 } }, { showAllData: all, silent });
    const valueKey = source.column ?? res.optionValue ?? 'id';
    return list.data.map((row) => ({ value: row[valueKey], label: optionLabel(row, res.optionLabel, valueKey) }));
  });
}

/**
 * The enums with the options of each row source the columns name (`resource:<name>[:<column>]`, a named
 * `lookup:<name>`) added under that source, so a list's cells and their text show a referenced row's label (a duty's
 * person and shift, a transport's hospitals) rather than its id. Each source is loaded once, as a select loads it
 * (resources cached a minute, dropped on this browser's writes), silently: a resource the user may not list leaves its
 * ids as they are. Preloaded renders take the preloaded options.
 */
export function useEnumsWithRows(enums: Enums, columns: readonly { options?: unknown }[]): Enums {
  const preload = usePreload();
  const names = [...new Set(columns.map((c) => c.options).filter((o): o is string => typeof o === 'string' && (o.startsWith(RESOURCE) || o.startsWith(LOOKUP))))].sort().join(',');
  const showAllData = useSession((st) => st.showAllData);
  const generation = useOptionsGeneration();
  const [loaded, setLoaded] = useState<Record<string, EnumOption[]>>({});
  useEffect(() => {
    if (!names || preload) return;
    let live = true;
    const load = (n: string) => (n.startsWith(LOOKUP) ? lookupOptions.get(n, () => loadLookup(n.slice(LOOKUP.length))) : loadResourceOptions(n.slice(RESOURCE.length), false, true));
    void Promise.all(names.split(',').map(async (n) => [n, await load(n).catch(() => [])] as const))
      .then((pairs) => { if (live) setLoaded(Object.fromEntries(pairs)); });
    return () => { live = false; };
  }, [names, preload, showAllData, generation]);
  return useMemo(() => {
    if (!names) return enums;
    const rows = preload ? Object.fromEntries(names.split(',').map((n) => [n, preload.options?.[n] ?? []])) : loaded;
    return { ...enums, ...rows };
  }, [enums, names, preload, loaded]);
}

/** A named lookup's answer for a list's cells, shared by every list that names it for a minute, as resource options are. */
const lookupOptions = createCache<EnumOption[]>(60_000);

/** After a page changed a resource's rows, the next select of `resource:<name>` loads them afresh (mounted ones at once). */
export const forgetResourceOptions = (name: string) => resourceOptions.forget((key) => nameOf(key) === name);

// A write under a resource's route (store, update, destroy, or a custom action there) drops that resource's
// options, as it leaves and as it ends: a role created a moment ago is in the next role select.
onWrite(({ url }) => {
  for (const r of peekResources() ?? []) {
    const route = resourceUrl(r.route);
    if (url === route || url.startsWith(`${route}/`)) forgetResourceOptions(r.name);
  }
});

/** Bumps when cached options are dropped, so mounted selects load again. */
const useOptionsGeneration = () => {
  const [generation, setGeneration] = useState(0);
  useEffect(() => resourceOptions.subscribe(() => setGeneration((n) => n + 1)), []);
  return generation;
};

const enumsStore = {
  listeners: new Set<() => void>(),
  subscribe(l: () => void) {
    enumsStore.listeners.add(l);
    // The first subscriber starts the (shared, cached) load; everyone hears when it lands.
    void loadEnums().then(() => { for (const x of [...enumsStore.listeners]) x(); }, () => undefined);
    return () => { enumsStore.listeners.delete(l); };
  },
};
const NO_ENUMS: Enums = {};

/** The enums of GET /api/enums (or the preloaded ones); the cached copy at once when there is one. */
export function useEnums(): Enums {
  const preload = usePreload();
  const loaded = useSyncExternalStore(enumsStore.subscribe, () => peekEnums() ?? NO_ENUMS, () => peekEnums() ?? NO_ENUMS);
  return preload?.enums ?? loaded;
}

/** Options from an enum name, `resource:<name>`, or an inline list, labels resolved to the current language. */
/** `workingHospital`: resource options of the hospital the user works in, whatever the show-all-data switch says. */
/** `rows`: the ids of the rows an action's prompt acts on, passed to a `lookup:` source that answers per row. */
export function useChoices(source: string | SearchOption[] | undefined, workingHospital = false, actedOn?: readonly (string | number)[]): Choice[] {
  const preload = usePreload();
  const { label } = useLabel();
  const enums = useEnums();
  const isResource = typeof source === 'string' && source.startsWith(RESOURCE);
  const isLookup = typeof source === 'string' && source.startsWith(LOOKUP);
  const preloaded = typeof source === 'string' ? preload?.options?.[source] : undefined;
  const showAllData = useSession((s) => s.showAllData);
  const generation = useOptionsGeneration();
  const [rows, setRows] = useState<EnumOption[]>(preloaded ?? []);
  const rowsKey = actedOn?.join(',') ?? '';
  useEffect(() => {
    if (!isLookup) return;
    let live = true;
    loadLookup((source as string).slice(LOOKUP.length), rowsKey ? rowsKey.split(',') : []).then((r) => live && setRows(r)).catch(() => {});
    return () => { live = false; };
  }, [source, isLookup, rowsKey]);
  useEffect(() => {
    if (!isResource || preloaded) return;
    let live = true;
    loadResourceOptions((source as string).slice(RESOURCE.length), workingHospital).then((r) => live && setRows(r)).catch(() => {});
    return () => { live = false; };
  }, [source, isResource, preloaded, showAllData, workingHospital, generation]);
  return useMemo(() => {
    const raw: EnumOption[] = Array.isArray(source) ? source : isResource || isLookup ? rows : typeof source === 'string' ? enums[source] ?? [] : [];
    return raw.map((o) => ({ value: o.value, label: label(o.label), color: o.color }));
  }, [source, isResource, isLookup, rows, enums, label]);
}

/**
 * A dialog's select box options in the hospital the user works in (an action acts there: a slide is bound to a case
 * of its own hospital), one per value.
 */
export function useSelectOptions(source: string | SearchOption[] | undefined, actedOn?: readonly (string | number)[]): { value: string; label: string }[] {
  const choices = useChoices(source, true, actedOn);
  return useMemo(() => [...new Map(choices.map((c) => [String(c.value), { value: String(c.value), label: c.label }])).values()], [choices]);
}
