import type { MouseEvent } from 'react';
import { namedRegistry } from '../core/namedRegistry';

/**
 * What a module does for links into its pages from list and record cells, registered by the module (the viewer: its
 * code fetched while a slide list is shown or a link pointed at, the slide asked for on the click), so the engine's
 * link cells need not know any module.
 */
export interface LinkOpener {
  /** Does this link (a route, with its query) go to the module's page? */
  matches(href: string): boolean;
  /** A cell with such a link was drawn. */
  shown?(): void;
  /** Such a link was pointed at or focused. */
  pointed?(): void;
  clicked?(href: string, e: MouseEvent): void;
}

const openers = namedRegistry<LinkOpener>('link opener');
export const registerLinkOpener = (name: string, opener: LinkOpener) => openers.register(name, opener);
export const linkOpenerFor = (href: string): LinkOpener | undefined => openers.values().find((o) => o.matches(href));
