import type { MessageHandler } from './client';

/**
 * Listening on the realtime channel without paying for it in the first paint: the MQTT client (~105 KB gz) loads
 * soon after the user's first key or pointer press (once what it started is under way), or 10 s after the first
 * listener, whichever comes first; a page that is live by nature (`now`) loads it at once. Until then, and if it
 * never loads, pages keep their interval refetch.
 */
const IDLE_LOAD_MS = 10_000;
/** After the first press: this long, then the next idle moment (at most this long again). */
const AFTER_PRESS_MS = 1_500;

let wake: () => void = () => undefined;
const woken = new Promise<void>((resolve) => { wake = resolve; });
let armed = false;

function armOnce(): void {
  if (armed) return;
  armed = true;
  // The first press often starts something the user waits for (a slide list's row opening the viewer): the
  // client's load and connection wait until that is under way and the page is idle, not ahead of it on the main
  // thread (scripts/bench/viewer.ts, "from SlideLibrary").
  const later = () => {
    window.removeEventListener('pointerdown', later, true);
    window.removeEventListener('keydown', later, true);
    const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
    setTimeout(() => idle(() => wake(), { timeout: AFTER_PRESS_MS }), AFTER_PRESS_MS);
  };
  window.addEventListener('pointerdown', later, true);
  window.addEventListener('keydown', later, true);
  setTimeout(() => wake(), IDLE_LOAD_MS);
}

/** Loads and connects the client now (a page whose rows show work under way waits for its pushes). */
export function connectNow(): void {
  wake();
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
