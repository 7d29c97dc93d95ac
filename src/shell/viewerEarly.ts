import { slideOfViewerAddress } from '../core/viewerAddress';
import { useSession } from '../store/session';
import { ViewerPage } from './viewerChunk';
import { fetchDescriptor, openSlide, type DziDescriptor, type SlideInfo } from '../viewer/slideOpen';

/** An early answer is taken by the viewer within this long, or dropped: a click whose route never showed the slide. */
const EARLY_FOR_MS = 15_000;

let started = false;
const early = {
  open: new Map<number, { at: number; promise: Promise<SlideInfo> }>(),
  descriptor: new Map<number, { at: number; promise: Promise<DziDescriptor | null> }>(),
};

/**
 * A viewer address opened directly (a new tab from a list, a link, a reload): the slide's information and its
 * descriptor are asked for at boot, beside the session's own calls, not behind session → route → chunk → page
 * (scripts/bench/viewer.ts prints the waterfall); the server opens the slide meanwhile. The viewer's code too:
 * loaded before the session is in, the route draws it at once instead of suspending, which React would hold for
 * its 300 ms fallback throttle (lazyChunk). Only with a session token and an unlocked screen; the open is silent
 * here, and the page asks again, aloud, if it failed.
 */
export function startViewerEarly(): void {
  const { pathname, search } = window.location;
  const id = slideOfViewerAddress(pathname, search);
  if (started || !id) return;
  started = true;
  startSlideEarly(id);
  if (useSession.getState().token) ViewerPage.preload();
}

/** Asks for a slide's information (which logs the view) and descriptor ahead of the viewer page, once. */
export function startSlideEarly(id: number): void {
  const { token, locked } = useSession.getState();
  const pending = early.open.get(id);
  if (!token || locked || (pending && Date.now() - pending.at < EARLY_FOR_MS)) return;
  const open = openSlide(id, true);
  const descriptor = fetchDescriptor(id);
  open.catch(() => {});
  descriptor.catch(() => {});
  const at = Date.now();
  early.open.set(id, { at, promise: open });
  early.descriptor.set(id, { at, promise: descriptor });
}

function take<T>(map: Map<number, { at: number; promise: T }>, id: number): T | undefined {
  const hit = map.get(id);
  map.delete(id);
  return hit && Date.now() - hit.at < EARLY_FOR_MS ? hit.promise : undefined;
}

/** The slide's information asked for ahead, once (a later visit opens it again, and is logged again). */
export function takeEarlyOpen(id: number): Promise<SlideInfo> | undefined {
  return take(early.open, id);
}

export function takeEarlyDescriptor(id: number): Promise<DziDescriptor | null> | undefined {
  return take(early.descriptor, id);
}
