import { useEffect } from 'react';
import { progressFields, rowsAtWork, WORK_POLL_MS } from '../../core/workUnderWay';
import type { Row } from '../dataProvider';

/** Asks for the rows again (`repoll`: quietly) a moment after each answer while a row shows work under way. */
export function useWorkPolling(rows: Row[], columns: readonly { field: string; cell?: string }[], repoll: () => void, off = false): void {
  const atWork = !off && rowsAtWork(rows, progressFields(columns));
  useEffect(() => {
    if (!atWork) return;
    const timer = setTimeout(repoll, WORK_POLL_MS);
    return () => clearTimeout(timer);
  }, [atWork, rows, repoll]);
}
