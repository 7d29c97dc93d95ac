import { useEffect, useMemo, useRef, useState } from 'react';
import { pageToJumpTo, type ListParams } from '../../core/listParams';
import { buildCountRequest, buildListRequest } from '../../core/listRequest';
import type { ResourceInfo, SearchField, TabSchema } from '../../core/pageSchema';
import { useSession } from '../../store/session';
import { httpDataProvider, type Row } from '../dataProvider';
import { peekCountAhead, peekListAhead, takeCountAhead, takeListAhead } from './listPrefetch';
import { useDataProvider } from '../dataContext';
import type { Preload } from '../preload';

/** Spec §9: requests are debounced 100 ms (typing in the search bar sends one request, not one per key). */
const REQUEST_DEBOUNCE_MS = 100;

/**
 * A list page's rows and tab counts for its address state: the first request goes out at once (a menu
 * click should show rows, not wait), later changes are debounced; a failure shows its message and empties
 * the list (spec §8). Hospital-scoped lists reload when the header's show-all-data switch changes (spec §6).
 */
export function useListData(opts: {
  resource: ResourceInfo | null; params: ListParams; items: readonly SearchField[]; tabs: readonly TabSchema[];
  preload?: Preload | null; reload: number; onJump(page: number): void; onRows?(): void;
  /** Each list answer, changed or not (work polling asks again a moment after it). */
  onAnswer?(): void;
  /** Bumped to ask again quietly (work under way): no loading state, the selection stays. */
  poll?: number;
}) {
  const { resource, params, items, tabs, preload, reload, poll = 0 } = opts;
  const dp = useDataProvider();
  const showAllData = useSession((st) => st.showAllData);
  const listRequest = useMemo(() => buildListRequest(params, items, tabs), [params, items, tabs]);
  const countRequest = useMemo(() => (tabs.length ? buildCountRequest(params, items, tabs) : null), [params, items, tabs]);
  // Answers sent ahead of the page (a menu click) that have already arrived: the first render draws them, rather
  // than a loading state and a second render of the whole page a moment later.
  const [arrived] = useState(() => {
    if (preload || !resource || dp !== httpDataProvider) return { list: undefined, counts: undefined };
    return { list: peekListAhead(resource.route, listRequest), counts: countRequest ? peekCountAhead(resource.route, countRequest) : undefined };
  });
  const [rows, setRows] = useState<Row[]>(preload?.rows ?? arrived.list?.data ?? []);
  const [total, setTotal] = useState(preload?.total ?? preload?.rows?.length ?? arrived.list?.total ?? 0);
  const [counts, setCounts] = useState<Record<string, number> | null>(preload?.counts ?? arrived.counts ?? null);
  const [loading, setLoading] = useState(!preload?.rows && !arrived.list);
  const listKey = JSON.stringify(listRequest);
  const countKey = JSON.stringify(countRequest);
  const latest = useRef(opts);
  latest.current = opts;
  const drawn = useRef({ rows, total });
  drawn.current = { rows, total };

  const listSent = useRef(false);
  const countSent = useRef(false);
  const polled = useRef(poll);
  // What each effect last ran for: running again for the same request means the page was shown again (the shell
  // keeps left list pages hidden, KeptOutlet), which asks again at once and quietly, over the rows still shown.
  const listRan = useRef('');
  const countRan = useRef('');
  useEffect(() => {
    if (preload?.rows || !resource) return;
    const ran = `${listKey}|${reload}|${poll}|${showAllData}|${resource.route}`;
    const reshown = listRan.current === ran;
    listRan.current = ran;
    if (!listSent.current && arrived.list) {
      // Drawn in the first render: the answer is only taken off the shelf (and a page past the end jumps back).
      listSent.current = true;
      takeListAhead(resource.route, listRequest);
      const jump = pageToJumpTo(params.page, arrived.list.data.length, arrived.list.total, params.pageSize);
      if (jump) latest.current.onJump(jump);
      return;
    }
    let live = true;
    const quiet = reshown || polled.current !== poll;
    polled.current = poll;
    if (!quiet) setLoading(true);
    const send = (first: boolean) => {
      // The first request may already be under way: SchemaPage sends it as soon as the schema is known.
      // Also when shown again: a menu click sends the request ahead (SchemaPage's navigation intent).
      const sentAhead = first && dp === httpDataProvider ? takeListAhead(resource.route, listRequest) : undefined;
      (sentAhead ?? dp.getList(resource, listRequest))
        .then((res) => {
          if (!live) return;
          // Asked again quietly and nothing changed: the page is not drawn again (a page shown again, a poll).
          const same = quiet && res.total === drawn.current.total && JSON.stringify(res.data) === JSON.stringify(drawn.current.rows);
          if (!same) {
            setRows(res.data);
            setTotal(res.total);
          }
          if (!quiet) latest.current.onRows?.();
          const jump = pageToJumpTo(params.page, res.data.length, res.total, params.pageSize);
          if (jump) latest.current.onJump(jump);
          latest.current.onAnswer?.();
        })
        .catch(() => {
          // The failure was shown where it was read (src/api/client.ts unwrap, or the HTTP error it was).
          if (!live) return;
          setRows([]);
          setTotal(0);
        })
        .finally(() => live && setLoading(false));
    };
    const now = !listSent.current || reshown;
    const timer = now ? undefined : setTimeout(() => send(false), REQUEST_DEBOUNCE_MS);
    if (now) send(true);
    listSent.current = true;
    return () => { live = false; clearTimeout(timer); };
  }, [listKey, reload, poll, resource, showAllData]); // eslint-disable-line react-hooks/exhaustive-deps -- listKey holds the request by value; the rest is read when it is sent

  useEffect(() => {
    if (preload?.counts || !resource || !countRequest) return;
    // A poll (work under way) asks for the counts too: a slide that became ready moves from one tab's count to another's.
    const ran = `${countKey}|${reload}|${poll}|${showAllData}|${resource.route}`;
    const reshown = countRan.current === ran;
    countRan.current = ran;
    const first = !countSent.current || reshown;
    if (!countSent.current && arrived.counts) {
      countSent.current = true;
      takeCountAhead(resource.route, countRequest);
      return;
    }
    let live = true;
    const send = () => {
      const sentAhead = first && dp === httpDataProvider ? takeCountAhead(resource.route, countRequest) : undefined;
      (sentAhead ?? dp.getCount(resource, countRequest))
        // The same counts keep the same object: a page shown again is not drawn again for them.
        .then((c) => live && setCounts((was) => (JSON.stringify(was) === JSON.stringify(c) ? was : c)))
        .catch(() => {
          // Spec §8: a failed count shows the error (where it was read) and clears the counts.
          if (!live) return;
          setCounts(null);
        });
    };
    const timer = first ? undefined : setTimeout(send, REQUEST_DEBOUNCE_MS);
    if (first) send();
    countSent.current = true;
    return () => { live = false; clearTimeout(timer); };
  }, [countKey, reload, poll, resource, showAllData]); // eslint-disable-line react-hooks/exhaustive-deps -- countKey holds the request by value; the rest is read when it is sent

  return { rows, total, counts, loading };
}
