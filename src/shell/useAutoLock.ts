import { useEffect, useRef } from 'react';
import { shouldAutoLock } from '../core/autoLock';
import { useSession } from '../store/session';

const ACTIVITY = ['mousemove', 'mousedown', 'keydown', 'wheel', 'touchstart'] as const;

/** Spec §4: checked each second; locks when idle longer than N minutes (0 or empty = never). */
export function useAutoLock(minutes: unknown) {
  const last = useRef(Date.now());
  useEffect(() => {
    if (!shouldAutoLock(Number.MAX_SAFE_INTEGER, minutes)) return;
    const touch = () => { last.current = Date.now(); };
    ACTIVITY.forEach((e) => window.addEventListener(e, touch, { passive: true }));
    const timer = window.setInterval(() => {
      const { locked, lock } = useSession.getState();
      if (!locked && shouldAutoLock((Date.now() - last.current) / 1000, minutes)) lock(window.location.pathname + window.location.search);
    }, 1000);
    return () => {
      ACTIVITY.forEach((e) => window.removeEventListener(e, touch));
      window.clearInterval(timer);
    };
  }, [minutes]);
}
