/** Leading-edge throttle: the first call in each window runs, the rest are dropped (toasts, confirms). */
export function throttle<A extends unknown[]>(fn: (...args: A) => void, ms: number, now: () => number = Date.now) {
  let last = -Infinity;
  return (...args: A) => {
    const t = now();
    if (t - last < ms) return;
    last = t;
    fn(...args);
  };
}

/**
 * Leading and trailing: the first call runs at once, calls within the next `ms` collapse into one run when the window
 * ends (a burst of pushes refetches twice, not once per push, and never misses the last state).
 */
export function coalesce(fn: () => void, ms: number, timers: { set: typeof setTimeout; clear: typeof clearTimeout } = { set: setTimeout, clear: clearTimeout }) {
  let timer: ReturnType<typeof setTimeout> | null = null;
  let pending = false;
  const open = () => {
    timer = timers.set(() => {
      timer = null;
      if (pending) {
        pending = false;
        fn();
        open();
      }
    }, ms);
  };
  const call = () => {
    if (timer) {
      pending = true;
      return;
    }
    fn();
    open();
  };
  call.cancel = () => {
    if (timer) timers.clear(timer);
    timer = null;
    pending = false;
  };
  return call;
}
