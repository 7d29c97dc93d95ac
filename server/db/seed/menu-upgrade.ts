/** A node of schemas/menus.json. */
export interface SeedMenu {
  uri: string; alias: string; route_name: string; name: string; en_name: string;
  is_show: string; icon: string | null; external_link: number; children: SeedMenu[];
}

/** Groups carry no alias (spec §2), so an entry is known by its alias, else by its route name. */
export const menuKey = (m: { alias: string; route_name: string }): string => m.alias || m.route_name;

export interface MenuToAdd {
  node: SeedMenu;
  key: string;
  /** The seed parent's key; null for a top-level entry. */
  parentKey: string | null;
  /** The seed siblings before this one, nearest first: the new entry goes after the first that is still there. */
  before: string[];
}

/**
 * The entries of the shipped menu tree an installation has not seen yet, parents before children.
 * `present`: keys of the rows in the menus table. `delivered`: every key an earlier seed shipped (null for an
 * installation from before the record was kept); a delivered key missing from the table was deleted or re-keyed
 * by an administrator and stays so. Existing rows are never part of the plan: what an administrator moved,
 * hid or renamed is theirs.
 */
export function menusToAdd(tree: SeedMenu[], present: ReadonlySet<string>, delivered: ReadonlySet<string> | null): MenuToAdd[] {
  const out: MenuToAdd[] = [];
  const walk = (nodes: SeedMenu[], parentKey: string | null) => {
    nodes.forEach((node, i) => {
      const key = menuKey(node);
      if (!present.has(key) && !delivered?.has(key)) {
        out.push({ node, key, parentKey, before: nodes.slice(0, i).map(menuKey).reverse() });
      }
      walk(node.children, key);
    });
  };
  walk(tree, null);
  return out;
}

/** Every key of the tree, to remember as delivered. */
export function menuKeys(tree: SeedMenu[]): string[] {
  return tree.flatMap((n) => [menuKey(n), ...menuKeys(n.children)]);
}
