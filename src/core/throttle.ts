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
