import { useEffect, useState } from 'react';
import { pickLayout } from '../../core/cardFields';
import type { ListLayout, ListSchema } from '../../core/pageSchema';

/** The user's table-or-cards choice per page, kept in this browser. */
const storeKey = (alias: string) => `dsms.listLayout:${alias}`;
function readLayout(alias: string): string | null {
  try {
    return localStorage.getItem(storeKey(alias));
  } catch {
    return null;
  }
}
function writeLayout(alias: string, layout: ListLayout) {
  try {
    localStorage.setItem(storeKey(alias), layout);
  } catch { /* storage unavailable: the choice lasts for this visit */ }
}

/**
 * Table or cards: the user's last choice for the page, else the schema's `layout`. Detached lists (the
 * schema editor's preview, preloaded renders) neither read nor keep a choice, and follow the schema as
 * it is edited.
 */
export function useListLayout(alias: string, list: ListSchema, detached: boolean): [ListLayout, (next: ListLayout) => void] {
  const [layout, setLayout] = useState<ListLayout>(() => pickLayout(list, detached ? null : readLayout(alias)));
  useEffect(() => { if (detached) setLayout(pickLayout(list, null)); }, [detached, list]);
  const choose = (next: ListLayout) => {
    setLayout(next);
    if (!detached) writeLayout(alias, next);
  };
  return [layout, choose];
}
