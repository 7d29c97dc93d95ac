/**
 * The engine's client caches (page schemas, enums, resource options): one promise per key, shared by
 * every caller, so a page and the prefetch never ask twice. Keys start with the working hospital
 * (`scopedKey`), because a hospital's schema override and its rows differ from another's. A failed
 * load is forgotten (the next use asks again); an answer older than `maxAgeMs` is asked again on
 * the next use (other people's writes); `forget` drops entries after this browser's own writes, and
 * tells subscribers, so a mounted select reloads at once instead of at the next page reload.
 */
export interface Cache<T> {
  /** The cached answer, or a new load of it (shared until it settles). */
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** The settled answer, without loading: lets a page render at once from a warm cache. */
  peek(key: string): T | undefined;
  /** Drops every entry whose key matches, and tells the subscribers. */
  forget(match: (key: string) => boolean): void;
  subscribe(listener: () => void): () => void;
}

interface Entry<T> { promise: Promise<T>; value?: T; settled: boolean; at: number }

export function createCache<T>(maxAgeMs = Infinity, now: () => number = Date.now): Cache<T> {
  const entries = new Map<string, Entry<T>>();
  const listeners = new Set<() => void>();
  const fresh = (e: Entry<T> | undefined): e is Entry<T> => !!e && (!e.settled || now() - e.at <= maxAgeMs);

  return {
    get(key, load) {
      const existing = entries.get(key);
      if (fresh(existing)) return existing.promise;
      const entry: Entry<T> = { promise: load(), settled: false, at: now() };
      entries.set(key, entry);
      entry.promise.then(
        (value) => { entry.value = value; entry.settled = true; entry.at = now(); },
        () => { if (entries.get(key) === entry) entries.delete(key); },
      );
      return entry.promise;
    },
    peek(key) {
      const e = entries.get(key);
      return fresh(e) && e.settled ? e.value : undefined;
    },
    forget(match) {
      let dropped = false;
      for (const key of [...entries.keys()]) {
        if (match(key)) {
          entries.delete(key);
          dropped = true;
        }
      }
      if (dropped) for (const l of [...listeners]) l();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },
  };
}

/** `hospital|part|part…`: the working hospital first, so one hospital's answers never serve another. */
export const scopedKey = (hospitalId: number | null | undefined, ...parts: string[]) => [String(hospitalId ?? 0), ...parts].join('|');
