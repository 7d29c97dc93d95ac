import { createContext, useContext } from 'react';
import type { Row } from './dataProvider';
import type { Enums } from './schemaApi';

/**
 * Data handed to the renderers instead of fetching it: the page-schema render tests use it (no
 * network under react-dom/server), and a hand-written page may use it to show rows it already has.
 */
export interface Preload {
  rows?: Row[];
  total?: number;
  counts?: Record<string, number>;
  record?: Row;
  enums?: Enums;
  /** Options of `resource:<name>` sources, keyed by the source text. */
  options?: Record<string, { value: unknown; label: string }[]>;
}

export const PreloadContext = createContext<Preload | null>(null);
export const usePreload = () => useContext(PreloadContext);

/**
 * Preview mode (the schema editor's live preview): list state stays out of the address, column
 * preferences are not saved, and the data provider refuses writes.
 */
export const PreviewContext = createContext(false);
export const usePreviewMode = () => useContext(PreviewContext);
