import { useMemo, useRef } from 'react';
import { DIALOG_CONFIRM_THROTTLE_MS } from '../../core/constants';
import { throttle } from '../../core/throttle';

/** Spec §5/§9: a dialog's confirm is throttled at 500 ms, so a double click acts once. */
export function useThrottledConfirm<A extends unknown[]>(fn: (...args: A) => void) {
  const latest = useRef(fn);
  latest.current = fn;
  return useMemo(() => throttle((...args: A) => latest.current(...args), DIALOG_CONFIRM_THROTTLE_MS), []);
}
