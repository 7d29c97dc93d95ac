import { lazyChunk } from './lazyChunk';

/**
 * The slide viewer's page, lazily: OpenSeadragon comes with the viewer's chunk only, the shell never loads it.
 * One place for the route and for those who ask for it ahead (viewerEarly at boot, slide lists: viewer/prefetch).
 */
export const ViewerPage = lazyChunk(() => import('../viewer/ViewerPage'));
