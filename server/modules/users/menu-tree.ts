import type { Selectable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { MenuTable } from '../../db/schema.js';
import type { SessionUser } from '../../http/types.js';
import { isAdmin } from '../../http/access.js';
import { applyMenuOverride, type MenuOverride } from '../../../src/core/menuOverride.js';

type MenuRow = Selectable<MenuTable>;

/** A menu row as the browser reads it (spec §3): `icon_path` mirrors `icon`, children nested. */
export interface MenuNode extends MenuRow {
  icon_path: string | null;
  children: MenuNode[];
}

/** Builds the tree from flat rows, keeping only `allowed` ids and the ancestors that lead to them. */
export function buildMenuTree(rows: MenuRow[], allowed: Set<number> | 'all'): MenuNode[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  const keep = new Set<number>();
  for (const r of rows) {
    if (allowed !== 'all' && !allowed.has(r.id)) continue;
    for (let cur: MenuRow | undefined = r; cur && !keep.has(cur.id); cur = cur.parent_id ? byId.get(cur.parent_id) : undefined) {
      keep.add(cur.id);
    }
  }
  const nodes = new Map<number, MenuNode>();
  for (const r of rows) if (keep.has(r.id)) nodes.set(r.id, { ...r, icon_path: r.icon, children: [] });
  const roots: MenuNode[] = [];
  for (const n of nodes.values()) {
    const parent = n.parent_id ? nodes.get(n.parent_id) : undefined;
    (parent ? parent.children : roots).push(n);
  }
  const sort = (list: MenuNode[]) => {
    list.sort((a, b) => a.rank - b.rank || a.id - b.id);
    list.forEach((n) => sort(n.children));
  };
  sort(roots);
  return roots;
}

/**
 * The caller's menu: every entry for administrators, otherwise the entries attached to the caller's roles; as the
 * working hospital renamed, hid and ordered it (`override`).
 */
export async function menuTreeFor(db: Db, user: SessionUser, override?: MenuOverride): Promise<MenuNode[]> {
  const rows = await db.selectFrom('menus').selectAll().execute();
  if (isAdmin(user)) return applyMenuOverride(buildMenuTree(rows, 'all'), override);
  const granted = await db.selectFrom('role_menus').innerJoin('user_roles', 'user_roles.role_id', 'role_menus.role_id')
    .select('role_menus.menu_id').where('user_roles.user_id', '=', user.id).execute();
  return applyMenuOverride(buildMenuTree(rows, new Set(granted.map((g) => g.menu_id))), override);
}

/** The whole menu as released and edited in SystemMenu, before any hospital's changes (the menu designer's base). */
export async function fullMenuTree(db: Db): Promise<MenuNode[]> {
  return buildMenuTree(await db.selectFrom('menus').selectAll().execute(), 'all');
}
