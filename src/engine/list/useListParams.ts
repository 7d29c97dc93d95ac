import { useCallback, useEffect, useMemo, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { settledListQuery, writeListQuery, type ListParams } from '../../core/listParams';
import { listParamsAt } from '../../core/listPageState';

/** The stored copy of each list's query, per route (react-admin keeps it in its store). */
const memory = new Map<string, string>();
const storeKey = (route: string) => `dsms.list:${route}`;

/** The stored query of a route's list (also read by the request sent ahead of the page, listPrefetch). */
export function readStoredListQuery(route: string): string | null {
  if (memory.has(route)) return memory.get(route)!;
  try {
    return sessionStorage.getItem(storeKey(route));
  } catch {
    return null;
  }
}
function writeStored(route: string, query: string) {
  memory.set(route, query);
  try {
    sessionStorage.setItem(storeKey(route), query);
  } catch { /* storage full or unavailable: the memory copy still serves this visit */ }
}

/**
 * List state in the address (spec §2), after react-admin's useListParams and refine's
 * syncWithLocation: the query is the truth and is rewritten with `replace`; keys the list does not
 * own are kept; an address without list keys takes the stored copy for the route, so coming back from
 * a record finds the same page, sort and filters.
 */
export function useListParams(route: string, defaults: ListParams, detached = false): [ListParams, (patch: Partial<ListParams>) => void] {
  const url = useUrlListParams(route, defaults, detached);
  const [local, setLocal] = useState(defaults);
  const setLocalPatch = useCallback((patch: Partial<ListParams>) => setLocal((p) => ({ ...p, ...patch })), []);
  return detached ? [local, setLocalPatch] : url;
}

function useUrlListParams(route: string, defaults: ListParams, detached: boolean): [ListParams, (patch: Partial<ListParams>) => void] {
  const location = useLocation();
  const navigate = useNavigate();
  const current = location.search.replace(/^\?/, '');
  // Read again when the address changes (the stored copy follows it in the effect below, a step behind).
  const stored = useMemo(() => readStoredListQuery(route), [current, route]); // eslint-disable-line react-hooks/exhaustive-deps -- current: see above
  const defaultsKey = JSON.stringify(defaults);
  const params = useMemo(() => listParamsAt(current, stored, defaults), [current, stored, defaultsKey]); // eslint-disable-line react-hooks/exhaustive-deps -- defaults compared by value (defaultsKey); the object is new each render

  useEffect(() => {
    if (detached) return;
    // The address always shows the state, defaults included, so it can be copied as a link. (A menu click already
    // opens that address: SchemaPage's navigation intent; this rewrite serves links and typed addresses.)
    const target = settledListQuery(current, readStoredListQuery(route), defaults);
    if (target !== current) navigate({ pathname: location.pathname, search: target }, { replace: true });
    else writeStored(route, current);
  }, [stored, current, route, detached, params]); // eslint-disable-line react-hooks/exhaustive-deps -- navigate and the pathname change with the very navigation this effect makes

  const setParams = useCallback((patch: Partial<ListParams>) => {
    const next = { ...params, ...patch };
    const search = writeListQuery(current, next);
    writeStored(route, search);
    navigate({ pathname: location.pathname, search }, { replace: true });
  }, [params, current, route, location.pathname, navigate]);

  return [params, setParams];
}
