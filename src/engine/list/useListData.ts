import { useCallback, useMemo, useRef, useState } from 'react';
import { listQueries } from '../../core/listPageState';
import { pageToJumpTo, type ListParams } from '../../core/listParams';
import { queryKey } from '../../core/listRequest';
import type { ResourceInfo, SearchField, TabSchema } from '../../core/pageSchema';
import { addPatch, NO_PATCHES, patchedRows, patchesAfter } from '../../core/rowPatches';
import { useSession } from '../../store/session';
import type { Row } from '../dataProvider';
import { useDataProvider } from '../dataContext';
import type { Preload } from '../preload';
import { useRead } from './useRead';

/**
 * A list page's rows and tab counts for its address state: the first request goes out at once (a menu
 * click should show rows, not wait), later changes are debounced; a failure (shown where it was read) empties
 * the list (spec §8). Hospital-scoped lists reload when the header's show-all-data switch changes (spec §6).
 * `patch` changes fields of a shown row in place (a push: a conversion's step), kept over the rows until a read
 * started after it answers (src/core/rowPatches.ts).
 */
export function useListData(opts: {
  resource: ResourceInfo | null; params: ListParams; items: readonly SearchField[]; tabs: readonly TabSchema[];
  preload?: Preload | null; reload: number; onJump(page: number): void; onRows?(): void;
  /** The field that keys the rows (patches name rows by it). */
  rowKey: string;
  /** Each list answer, changed or not (work polling asks again a moment after it). */
  onAnswer?(): void;
  /** Bumped to ask again quietly (work under way): no loading state, the selection stays. */
  poll?: number;
}) {
  const { resource, params, items, tabs, preload, reload, poll = 0 } = opts;
  const dp = useDataProvider();
  const showAllData = useSession((st) => st.showAllData);
  const queries = useMemo(() => listQueries(params, items, tabs), [params, items, tabs]);
  // Answers sent ahead of the page (a menu click) that have already arrived: the first render draws them, rather
  // than a loading state and a second render of the whole page a moment later.
  const [arrived] = useState(() => (preload || !resource ? {} : {
    list: dp.peekList?.(resource, queries.list),
    counts: queries.count ? dp.peekCount?.(resource, queries.count) : undefined,
  }));
  const [rows, setRows] = useState<Row[]>(preload?.rows ?? arrived.list?.data ?? []);
  const [total, setTotal] = useState(preload?.total ?? preload?.rows?.length ?? arrived.list?.total ?? 0);
  const [counts, setCounts] = useState<Record<string, number> | null>(preload?.counts ?? arrived.counts ?? null);
  const [loading, setLoading] = useState(!preload?.rows && !arrived.list);
  const [patches, setPatches] = useState(NO_PATCHES);
  const patchesNow = useRef(patches);
  patchesNow.current = patches;
  /** The newest patch when the list read now out started: its answer holds those, not later ones. */
  const readFrom = useRef(0);
  const patch = useCallback((key: string, values: Record<string, unknown>) => setPatches((was) => addPatch(was, key, values)), []);
  const latest = useRef(opts);
  latest.current = opts;
  const jumpIfPastTheEnd = (got: number, of: number) => {
    const jump = pageToJumpTo(params.page, got, of, params.pageSize);
    if (jump) latest.current.onJump(jump);
  };
  // What a read is for: asked again for the same one means the page was shown again (KeptOutlet), or polled.
  const scope = `${reload}|${poll}|${showAllData}|${resource?.route}`;

  useRead(preload?.rows || !resource ? null : `${queryKey(queries.list)}|${scope}`, poll, arrived.list, {
    read: () => {
      readFrom.current = patchesNow.current.seq;
      return dp.getList(resource!, queries.list);
    },
    start: (quiet) => { if (!quiet) setLoading(true); },
    arrived: (res) => jumpIfPastTheEnd(res.data.length, res.total),
    answer: (res, quiet) => {
      // Asked again quietly and nothing changed: the page is not drawn again (a page shown again, a poll).
      setRows((was) => (quiet && JSON.stringify(was) === JSON.stringify(res.data) ? was : res.data));
      setPatches((was) => patchesAfter(was, readFrom.current));
      setTotal(res.total);
      if (!quiet) latest.current.onRows?.();
      jumpIfPastTheEnd(res.data.length, res.total);
      latest.current.onAnswer?.();
    },
    fail: () => { setRows([]); setTotal(0); },
    settle: () => setLoading(false),
  });

  // A poll (work under way) asks for the counts too: a slide that became ready moves from one tab's count to another's.
  useRead(preload?.counts || !resource || !queries.count ? null : `${queryKey(queries.count)}|${scope}`, poll, arrived.counts, {
    read: () => dp.getCount(resource!, queries.count!),
    // The same counts keep the same object: a page shown again is not drawn again for them.
    answer: (c) => setCounts((was) => (JSON.stringify(was) === JSON.stringify(c) ? was : c)),
    // Spec §8: a failed count shows the error (where it was read) and clears the counts.
    fail: () => setCounts(null),
  });

  const shown = useMemo(() => patchedRows(rows, opts.rowKey, patches), [rows, opts.rowKey, patches]);
  return { rows: shown, total, counts, loading, patch };
}
