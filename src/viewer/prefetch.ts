import { slideOfViewerAddress } from '../core/viewerAddress';
import { startSlideEarly } from '../shell/viewerEarly';
import { ViewerPage } from '../shell/viewerChunk';

/**
 * Opening the viewer from a slide list without waiting: its code ahead, the slide on the click. Here, not in the
 * shell (whose code budget is for the login and the frame): only list pages use it, through the link opener
 * src/modules/viewerLinks.ts registers into the engine's link cells.
 */

let prefetching = false;

/**
 * The viewer's code fetched and made ready while a slide list is read (idle time) or a link to a slide is
 * pointed at, so the click waits for the slide, not for OpenSeadragon and the viewer's components, and the route
 * draws it without suspending (lazyChunk). A failed fetch is tried again on the next ask (the route's own load
 * reports failures).
 */
export function prefetchViewer(): void {
  prefetching = true;
  ViewerPage.preload();
}

/** prefetchViewer when the page has nothing else to do (a list has just rendered its rows and thumbnails). */
export function prefetchViewerWhenIdle(): void {
  if (prefetching) return;
  const idle = window.requestIdleCallback ?? ((run: () => void) => window.setTimeout(run, 200));
  idle(prefetchViewer, { timeout: 2000 });
}

/**
 * A same-tab click on a link into the viewer: the slide is asked for now, while the route changes and the page
 * renders, as a direct visit asks at boot. Only for the plain click the router turns into a navigation.
 */
export function openSlideOnClick(href: string, e: { button: number; metaKey: boolean; ctrlKey: boolean; shiftKey: boolean; altKey: boolean; defaultPrevented: boolean }): void {
  if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
  const url = new URL(href, window.location.href);
  const id = slideOfViewerAddress(url.pathname, url.search);
  if (id) startSlideEarly(id);
}
