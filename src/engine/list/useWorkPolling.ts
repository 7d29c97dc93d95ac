import { useCallback, useEffect, useRef } from 'react';
import { progressFields, rowsAtWork } from '../../core/workUnderWay';
import type { Row } from '../dataProvider';

/**
 * Asks for the rows again (`repoll`: quietly) `everyMs` after each answer while a row shows work under way; never
 * when `everyMs` is null (pushes announce the work: workPollMs). Returns what to call on each answer: one that
 * changed nothing is not drawn again (useListData), so the rows alone would never say that it came, and the polling
 * would stop while a conversion's progress stood still. Answers whether a row shows work.
 */
export function useWorkPolling(rows: Row[], columns: readonly { field: string; cell?: string }[], repoll: () => void, opts: { off: boolean; everyMs: number | null }): { arm: () => void; atWork: boolean } {
  const atWork = !opts.off && rowsAtWork(rows, progressFields(columns));
  const polling = atWork && opts.everyMs !== null ? opts.everyMs : null;
  const pollingNow = useRef(polling);
  pollingNow.current = polling;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const arm = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = pollingNow.current !== null ? setTimeout(repoll, pollingNow.current) : undefined;
  }, [repoll]);
  useEffect(() => {
    arm();
    return () => clearTimeout(timer.current);
  }, [polling, rows, arm]);
  return { arm, atWork };
}
