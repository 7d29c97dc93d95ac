import type { MessageHandler } from './client';

/**
 * Listening on the realtime channel without paying for it in the first paint: the MQTT client (~105 KB gz) loads on
 * the user's first key or pointer press, or 10 s after the first listener, whichever comes first; a page that is
 * live by nature (`now`) loads it at once. Until then, and if it never loads, pages keep their interval refetch.
 */
const IDLE_LOAD_MS = 10_000;

let wake: () => void = () => undefined;
const woken = new Promise<void>((resolve) => { wake = resolve; });
let armed = false;

function armOnce(): void {
  if (armed) return;
  armed = true;
  const go = () => {
    window.removeEventListener('pointerdown', go, true);
    window.removeEventListener('keydown', go, true);
    wake();
  };
  window.addEventListener('pointerdown', go, true);
  window.addEventListener('keydown', go, true);
  setTimeout(go, IDLE_LOAD_MS);
}

/** Listens on a topic filter; answers the function that stops listening (safe before the client has loaded). */
export function listen(filter: string, handler: MessageHandler, opts: { now?: boolean } = {}): () => void {
  if (opts.now) wake();
  else armOnce();
  let stopped = false;
  let off: (() => void) | null = null;
  void woken
    .then(() => import('./client'))
    .then((client) => { if (!stopped) off = client.subscribe(filter, handler); }, () => undefined);
  return () => {
    stopped = true;
    off?.();
  };
}
