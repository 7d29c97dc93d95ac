import sharp from 'sharp';

/**
 * libvips caches load operations by file and options; a second decode of the same TIFF page then gets the first
 * one's sequential reader, already spent ("out of order read"). Decoded results are cached by our own LRUs (tile
 * cache, thumbnails on disk), so libvips' operation cache buys nothing here. Import sharp from this module.
 */
sharp.cache(false);

export default sharp;
export type { Sharp } from 'sharp';
