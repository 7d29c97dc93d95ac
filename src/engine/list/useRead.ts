import { useEffect, useRef } from 'react';

/** Spec §9: requests are debounced 100 ms (typing in the search bar sends one request, not one per key). */
const REQUEST_DEBOUNCE_MS = 100;

export interface ReadHandlers<T> {
  read(): Promise<T>;
  /** `quiet`: asked again for what is shown (shown again, polled): no loading state. */
  start?(quiet: boolean): void;
  /** The first read's answer was already here (drawn in the first render). */
  arrived?(answer: T): void;
  answer(answer: T, quiet: boolean): void;
  fail(): void;
  settle?(): void;
}

/**
 * One read of a list page (its rows, its counts) for `run`, the text of what it is for (null: none). The first goes
 * out at once, later changes after the debounce; the same `run` again means the page was shown again, which asks
 * at once and quietly, as a changed `poll` does. An answer already here is taken by reading it (the provider hands
 * the one sent ahead over at once) and not drawn again.
 */
export function useRead<T>(run: string | null, poll: number, arrived: T | undefined, handlers: ReadHandlers<T>): void {
  const last = useRef<{ run: string; poll: number } | null>(null);
  const h = useRef(handlers);
  h.current = handlers;
  useEffect(() => {
    if (run === null) return;
    const before = last.current;
    last.current = { run, poll };
    if (!before && arrived !== undefined) {
      h.current.arrived?.(arrived);
      void h.current.read().catch(() => undefined);
      return;
    }
    const reshown = before?.run === run;
    const quiet = reshown || (!!before && before.poll !== poll);
    let live = true;
    h.current.start?.(quiet);
    const send = () => {
      h.current.read()
        .then((answer) => { if (live) h.current.answer(answer, quiet); }, () => { if (live) h.current.fail(); })
        .finally(() => { if (live) h.current.settle?.(); });
    };
    const now = !before || reshown;
    const timer = now ? undefined : setTimeout(send, REQUEST_DEBOUNCE_MS);
    if (now) send();
    return () => { live = false; clearTimeout(timer); };
  }, [run]); // eslint-disable-line react-hooks/exhaustive-deps -- run holds what the read is for (poll included); the handlers are read when it is sent
}
