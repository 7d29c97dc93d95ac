import { useCallback, useEffect, useMemo, useState } from 'react';
import { applyColumnPrefs, type ColumnPref } from '../../core/columnPrefs';
import type { Column } from '../../core/pageSchema';
import { pis } from '../../db/pis';
import { useSession } from '../../store/session';
import { fetchColumnPrefs, peekColumnPrefs, saveColumnPrefs } from '../schemaApi';

interface StoredColumns { id: string; user_id: number; route: string; alias: string; columns: ColumnPref[]; updated_at: string }

/**
 * Column order and visibility per route and user (spec §2), after react-admin's DatagridConfigurable:
 * kept in the 'pis' database (table `table_menu`, key `${user}:${route}`) for an instant start, and on
 * the server (GET/PUT /api/schemas/{alias}/columns) so it follows the user to another browser.
 */
export function useColumnPrefs(alias: string, route: string, columns: Column[], offline = false) {
  const userId = useSession((s) => s.user?.id ?? 0);
  const id = `${userId}:${route}`;
  // Read once per session (cached per user and page): a later visit starts with them, and renders once.
  const [stored, setStored] = useState<ColumnPref[]>(() => (offline ? undefined : peekColumnPrefs(alias)) ?? []);
  const same = (next: ColumnPref[]) => (prev: ColumnPref[]) => (JSON.stringify(prev) === JSON.stringify(next) ? prev : next);

  useEffect(() => {
    if (offline) return;
    // Cached by now: taken, not skipped. An answer that landed after the first render read the cache and before
    // this effect ran (a busy browser runs effects a task later) was otherwise never shown: the schema's columns
    // stood instead of the user's. Drawn with it already: the same state, no render.
    const here = peekColumnPrefs(alias);
    if (here) {
      setStored(same(here));
      return;
    }
    let live = true;
    void (async () => {
      try {
        const local = (await pis.table_menu.get(id)) as StoredColumns | undefined;
        if (live && local?.columns?.length) setStored(same(local.columns));
      } catch { /* IndexedDB may be unavailable; the server copy still applies */ }
      try {
        const remote = await fetchColumnPrefs(alias);
        if (!live || !remote.length) return;
        setStored(same(remote));
        await pis.table_menu.put({ id, user_id: userId, route, alias, columns: remote, updated_at: new Date().toISOString() } satisfies StoredColumns).catch(() => {});
      } catch { /* no stored preference on the server: the local copy or the schema defaults stand */ }
    })();
    return () => { live = false; };
  }, [alias, id, route, userId, offline]);

  const prefs = useMemo(() => applyColumnPrefs(columns, stored), [columns, stored]);

  const save = useCallback((next: ColumnPref[]) => {
    setStored(next);
    if (offline) return;
    void pis.table_menu.put({ id, user_id: userId, route, alias, columns: next, updated_at: new Date().toISOString() } satisfies StoredColumns).catch(() => {});
    void saveColumnPrefs(alias, next).catch(() => {});
  }, [alias, id, route, userId, offline]);

  const reset = useCallback(() => save(applyColumnPrefs(columns, [])), [columns, save]);
  return { prefs, save, reset };
}
