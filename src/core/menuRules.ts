/** A menu entry as the server sends it (spec §2, §3). */
export interface MenuEntry {
  id?: number;
  uri: string;
  alias: string;
  route_name: string;
  name: string;
  en_name: string;
  is_show: string | number;
  icon?: string | null;
  icon_path?: string | null;
  external_link?: number | string;
  active_menu?: string | null;
  children?: MenuEntry[];
}

export const isShown = (m: MenuEntry) => String(m.is_show) === '1';
export const isExternal = (m: MenuEntry) => Number(m.external_link) === 1;

/**
 * The side menu of spec §2: only is_show entries; a parent whose children are all hidden is hidden;
 * a parent with exactly one visible child collapses into that child, keeping the parent's names and icon.
 */
export function visibleMenu(tree: MenuEntry[]): MenuEntry[] {
  const out: MenuEntry[] = [];
  for (const entry of tree) {
    if (!isShown(entry)) continue;
    const hadChildren = (entry.children?.length ?? 0) > 0;
    const children = visibleMenu(entry.children ?? []);
    if (hadChildren && children.length === 0) continue;
    if (children.length === 1) {
      const only = children[0];
      out.push({ ...only, name: entry.name, en_name: entry.en_name, icon: entry.icon ?? only.icon, icon_path: entry.icon_path ?? only.icon_path });
      continue;
    }
    out.push({ ...entry, children });
  }
  return out;
}

export interface MenuRoute {
  /** Path under /manage without the leading slash, e.g. `slide/library`. */
  path: string;
  alias: string;
  routeName: string;
  name: string;
  enName: string;
}

/**
 * Every entry with an alias becomes a route, shown in the menu or not (hidden entries such as
 * ScannerDetail are reached from other pages). The query part of a uri is not part of the route.
 */
export function menuRoutes(tree: MenuEntry[]): MenuRoute[] {
  const routes: MenuRoute[] = [];
  const seen = new Set<string>();
  const walk = (entries: MenuEntry[]) => {
    for (const e of entries) {
      if (e.alias && !isExternal(e)) {
        const path = e.uri.split('?')[0].replace(/^\/manage\/?/, '').replace(/^\//, '');
        if (path && !seen.has(path)) {
          seen.add(path);
          routes.push({ path, alias: e.alias, routeName: e.route_name, name: e.name, enName: e.en_name });
        }
      }
      walk(e.children ?? []);
    }
  };
  walk(tree);
  return routes;
}

/** The first entry a user can land on after login: the first visible leaf of the menu. */
export function firstLeaf(tree: MenuEntry[]): MenuEntry | undefined {
  for (const e of visibleMenu(tree)) {
    if (e.children?.length) {
      const leaf = firstLeaf(e.children);
      if (leaf) return leaf;
    } else if (!isExternal(e)) {
      return e;
    }
  }
  return undefined;
}

/** Menu label in the current language. */
export const menuLabel = (m: Pick<MenuEntry, 'name' | 'en_name'>, lang: string) => (lang.startsWith('en') ? m.en_name || m.name : m.name);

/** Whether the menu should collapse when the user clicks outside it (spec §2, §9). */
export const collapsesOnOutsideClick = (windowWidth: number) => windowWidth <= 1440;
