/** May answer the address to open instead (a list's address with its settled query, so it is not rewritten after). */
type Listener = (uri: string) => string | void;
const listeners = new Set<Listener>();

/**
 * Told, in the click's own tick, that the user asked for an address from the menu, before the router draws it.
 * The engine (a lazy chunk the shell does not import) listens to send the next list's request while the page
 * renders, rather than after (scripts/bench/navigation.ts: click → request sent), and to open a list at its settled
 * address at once rather than rewriting it after the first render (a second render of the whole frame).
 */
export function onNavigationIntent(listener: Listener): () => void {
  listeners.add(listener);
  return () => { listeners.delete(listener); };
}

/** Tells the listeners, and answers the address to navigate to. */
export function announceNavigation(uri: string): string {
  for (const l of [...listeners]) {
    try {
      const next = l(uri);
      if (typeof next === 'string') return next;
    } catch { /* an optimisation: it never stops the navigation */ }
  }
  return uri;
}
