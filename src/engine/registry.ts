import type { ComponentType } from 'react';
import { lazyChunk } from '../shell/lazyChunk';
import type { ResolvedSchema } from '../core/pageSchema';
import { namedRegistry } from '../core/namedRegistry';

/**
 * Page type → renderer, after amis's factory (packages/amis-core/src/factory.tsx): renderers register
 * by type, `resolveRenderer` finds one by `schema.type`, and an unknown type gets a visible error
 * panel from the caller instead of a crash. Renderers load lazily so each page type is its own chunk.
 */
export interface RendererProps {
  /** The page with its fields' labels, cells and widgets filled from the resource and its form compiled (resolvePage). */
  page: ResolvedSchema;
  /** The record id when the page shows one record (detail, edit), from the address. */
  recordId?: string;
  /** The path of the page's own route, for links to its records (`/manage/system/user`). */
  basePath: string;
}

type Loader = () => Promise<{ default: ComponentType<RendererProps> }>;
interface Entry { load: Loader; component: ComponentType<RendererProps>; ready: boolean }

const renderers = namedRegistry<Entry>('page type');

export function registerRenderer(type: string, load: Loader): void {
  const entry: Entry = {
    load: () => load().then((m) => { entry.ready = true; return m; }),
    component: lazyChunk(() => entry.load()),
    ready: false,
  };
  renderers.register(type, entry);
}

/** Whether a type's renderer code is already here, so a page of that type draws without waiting for a chunk. */
export const rendererReady = (type: string) => renderers.get(type)?.ready ?? false;

/** The renderer for a page type, or null (the caller shows the unknown-type panel). */
export const resolveRenderer = (type: string) => renderers.get(type)?.component ?? null;

/** The renderer module itself, resolved (tests render it without Suspense). */
export const loadRenderer = async (type: string) => (await renderers.get(type)?.load())?.default ?? null;

export const rendererTypes = () => renderers.names();

registerRenderer('list', () => import('./list/ListPage'));
registerRenderer('form', () => import('./form/FormPage'));
registerRenderer('detail', () => import('./detail/DetailPage'));
registerRenderer('iframe', () => import('./iframe/IframePage'));
