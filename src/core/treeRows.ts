type Row = Record<string, unknown>;

/**
 * Tree lists (menus, labels) come from the server flat, each row naming its parent. This nests them
 * under `children`; a row whose parent is not in the page becomes a root, so nothing is lost.
 * Rows that already carry `children` are left as they are.
 */
export function nestRows(rows: readonly Row[], key = 'id', parentKey = 'parent_id'): Row[] {
  if (rows.some((r) => Array.isArray(r.children)) || !rows.some((r) => r[parentKey] !== undefined)) return [...rows];
  const byKey = new Map<string, Row & { children: Row[] }>();
  for (const r of rows) byKey.set(String(r[key]), { ...r, children: [] });
  const roots: Row[] = [];
  for (const r of rows) {
    const node = byKey.get(String(r[key]))!;
    const parent = r[parentKey] === null || r[parentKey] === undefined ? undefined : byKey.get(String(r[parentKey]));
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const prune = (list: Row[]): Row[] => list.map((n) => {
    const children = prune((n.children as Row[]) ?? []);
    const { children: _drop, ...rest } = n;
    return children.length ? { ...rest, children } : rest;
  });
  return prune(roots);
}

/** The siblings of a row: the rows with the same parent, in their current order. */
function siblingsOf(rows: readonly Row[], target: Row, key: string, parentKey: string): Row[] {
  const walk = (list: readonly Row[]): Row[] | undefined => {
    if (list.some((r) => r[key] === target[key])) return [...list];
    for (const r of list) {
      const found = Array.isArray(r.children) ? walk(r.children as Row[]) : undefined;
      if (found) return found;
    }
    return undefined;
  };
  return walk(rows) ?? rows.filter((r) => r[parentKey] === target[parentKey]);
}

/**
 * Drag-reorder (spec §2): the dragged row takes the place of the row it is dropped on, among its
 * siblings only (a drop on another parent's row is refused). The siblings keep the rank values they
 * had, reassigned in the new order; only the rows whose rank changes are returned, to be saved.
 */
export function reorderRanks(rows: readonly Row[], fromKey: string, toKey: string, rankField = 'rank', key = 'id', parentKey = 'parent_id'): { key: unknown; rank: number }[] {
  const flat: Row[] = [];
  const collect = (list: readonly Row[]) => list.forEach((r) => { flat.push(r); if (Array.isArray(r.children)) collect(r.children as Row[]); });
  collect(rows);
  const from = flat.find((r) => String(r[key]) === fromKey);
  const to = flat.find((r) => String(r[key]) === toKey);
  if (!from || !to || from === to) return [];
  const siblings = siblingsOf(rows, from, key, parentKey);
  if (!siblings.some((r) => r[key] === to[key])) return [];
  const ranks = siblings.map((r, i) => (typeof r[rankField] === 'number' ? (r[rankField] as number) : i + 1)).sort((a, b) => a - b);
  // Equal ranks would not order anything: fall back to 1..n.
  const usable = new Set(ranks).size === ranks.length ? ranks : ranks.map((_, i) => i + 1);
  const order = siblings.filter((r) => r[key] !== from[key]);
  order.splice(order.findIndex((r) => r[key] === to[key]) + (siblings.indexOf(from) < siblings.indexOf(to) ? 1 : 0), 0, from);
  return order.map((r, i) => ({ key: r[key], rank: usable[i], before: r[rankField] }))
    .filter((c) => c.before !== c.rank).map(({ key: k, rank }) => ({ key: k, rank }));
}
