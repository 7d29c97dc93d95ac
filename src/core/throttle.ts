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

type TimerId = ReturnType<typeof setTimeout>;
interface Timers { set(f: () => void, ms: number): TimerId; clear(t: TimerId): void }

/**
 * Leading and trailing: the first call runs at once, calls within the next `ms` collapse into one run when the window
 * ends (a burst of pushes refetches twice, not once per push, and never misses the last state). The default timers are
 * wrapped: a browser's setTimeout called as a method of another object throws "Illegal invocation".
 */
export function coalesce(fn: () => void, ms: number, timers: Timers = { set: (f, ms) => setTimeout(f, ms), clear: (t) => clearTimeout(t) }) {
  let timer: TimerId | null = null;
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
