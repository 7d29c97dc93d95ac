import { useEffect, useMemo, useState } from 'react';
import type { SearchOption } from '../core/pageSchema';
import { httpDataProvider } from './dataProvider';
import { usePreload } from './preload';
import { loadEnums, loadResources, type EnumOption, type Enums } from './schemaApi';
import type { Choice } from '../widgets/search/choices';
import { useSession } from '../store/session';
import { useLabel } from '../widgets/useLabel';

const RESOURCE = 'resource:';
const resourceCache = new Map<string, Promise<EnumOption[]>>();
/** A hospital-scoped resource lists one hospital's rows, or all the user's with show-all-data on. */
const SCOPES = ['one', 'all'] as const;
const cacheKey = (name: string, scope: (typeof SCOPES)[number]) => `${name}|${scope}`;

/**
 * Rows of a resource as options: GET `${route}/lists?page_size=1000`, label and value columns from GET /api/resources.
 * Cached per show-all-data state, since the answer differs with the switch on; `workingHospital` ignores the switch.
 */
function loadResourceOptions(name: string, workingHospital = false): Promise<EnumOption[]> {
  const all = useSession.getState().showAllData && !workingHospital;
  const key = cacheKey(name, all ? 'all' : 'one');
  let p = resourceCache.get(key);
  if (!p) {
    p = (async () => {
      const res = (await loadResources()).find((r) => r.name === name);
      if (!res) return [];
      const list = await httpDataProvider.getList(res, { page: 1, page_size: 1000 }, { showAllData: all });
      const labelKey = res.optionLabel ?? 'name';
      const valueKey = res.optionValue ?? 'id';
      return list.data.map((row) => ({ value: row[valueKey], label: String(row[labelKey] ?? row[valueKey] ?? '') }));
    })();
    p.catch(() => resourceCache.delete(key));
    resourceCache.set(key, p);
  }
  return p;
}

/** After a page changed a resource's rows, the next select of `resource:<name>` loads them afresh. */
export const forgetResourceOptions = (name: string) => {
  for (const scope of SCOPES) resourceCache.delete(cacheKey(name, scope));
};

/** The enums of GET /api/enums (or the preloaded ones). */
export function useEnums(): Enums {
  const preload = usePreload();
  const [enums, setEnums] = useState<Enums>(preload?.enums ?? {});
  useEffect(() => {
    if (preload?.enums) return;
    let live = true;
    loadEnums().then((e) => live && setEnums(e)).catch(() => {});
    return () => { live = false; };
  }, [preload]);
  return enums;
}

/** Options from an enum name, `resource:<name>`, or an inline list, labels resolved to the current language. */
/** `workingHospital`: resource options of the hospital the user works in, whatever the show-all-data switch says. */
export function useChoices(source: string | SearchOption[] | undefined, workingHospital = false): Choice[] {
  const preload = usePreload();
  const { label } = useLabel();
  const enums = useEnums();
  const isResource = typeof source === 'string' && source.startsWith(RESOURCE);
  const preloaded = typeof source === 'string' ? preload?.options?.[source] : undefined;
  const showAllData = useSession((s) => s.showAllData);
  const [rows, setRows] = useState<EnumOption[]>(preloaded ?? []);
  useEffect(() => {
    if (!isResource || preloaded) return;
    let live = true;
    loadResourceOptions((source as string).slice(RESOURCE.length), workingHospital).then((r) => live && setRows(r)).catch(() => {});
    return () => { live = false; };
  }, [source, isResource, preloaded, showAllData, workingHospital]);
  return useMemo(() => {
    const raw: EnumOption[] = Array.isArray(source) ? source : isResource ? rows : typeof source === 'string' ? enums[source] ?? [] : [];
    return raw.map((o) => ({ value: o.value, label: label(o.label), color: o.color }));
  }, [source, isResource, rows, enums, label]);
}
