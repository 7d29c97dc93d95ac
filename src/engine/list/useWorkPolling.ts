import { useCallback, useEffect, useRef } from 'react';
import { progressFields, rowsAtWork, WORK_POLL_MS } from '../../core/workUnderWay';
import type { Row } from '../dataProvider';

/**
 * Asks for the rows again (`repoll`: quietly) a moment after each answer while a row shows work under way. Returns
 * what to call on each answer: one that changed nothing is not drawn again (useListData), so the rows alone would
 * never say that it came, and the polling would stop while a conversion's progress stood still.
 */
export function useWorkPolling(rows: Row[], columns: readonly { field: string; cell?: string }[], repoll: () => void, off = false): () => void {
  const atWork = !off && rowsAtWork(rows, progressFields(columns));
  const atWorkNow = useRef(atWork);
  atWorkNow.current = atWork;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const arm = useCallback(() => {
    clearTimeout(timer.current);
    timer.current = atWorkNow.current ? setTimeout(repoll, WORK_POLL_MS) : undefined;
  }, [repoll]);
  useEffect(() => {
    arm();
    return () => clearTimeout(timer.current);
  }, [atWork, rows, arm]);
  return arm;
}
