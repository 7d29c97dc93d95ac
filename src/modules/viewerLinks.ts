import { slideOfViewerAddress } from '../core/viewerAddress';
import { registerLinkOpener } from '../engine/links';
import { openSlideOnClick, prefetchViewer, prefetchViewerWhenIdle } from '../viewer/prefetch';

/**
 * A row's or card's link to a slide (SlideLibrary, DataSlice, SlideRead …). A list of them fetches the viewer's
 * code when idle, pointing at one fetches it now, and the click asks for the slide beside the route change: the
 * viewer then waits for tiles only (scripts/bench/viewer.ts, "from SlideLibrary").
 */
registerLinkOpener('viewer', {
  matches: (href) => {
    // Any base will do: only the path and query are read (and the page-schema tests render without a window).
    const url = new URL(href, 'http://localhost');
    return slideOfViewerAddress(url.pathname, url.search) !== null;
  },
  shown: prefetchViewerWhenIdle,
  pointed: prefetchViewer,
  clicked: openSlideOnClick,
});
