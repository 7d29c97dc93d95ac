/**
 * Diagnostic templates form a tree per hospital (spec §5: "an upper diagnostic template cannot be itself"). A new
 * parent is refused when it is the template itself or one of its descendants: either would make a cycle and hide
 * the branch from the tree.
 */
export interface TemplateNode { id: number; parent_id: number | null }

export function parentProblem(nodes: TemplateNode[], id: number | null, parentId: number | null): 'self' | 'descendant' | 'unknown' | undefined {
  if (parentId == null) return undefined;
  if (id != null && parentId === id) return 'self';
  const byId = new Map(nodes.map((n) => [n.id, n]));
  if (!byId.has(parentId)) return 'unknown';
  if (id == null) return undefined;
  for (let cur = byId.get(parentId), hops = 0; cur && hops <= nodes.length; cur = cur.parent_id != null ? byId.get(cur.parent_id) : undefined, hops++) {
    if (cur.id === id) return 'descendant';
  }
  return undefined;
}

export type Tree<T extends TemplateNode> = T & { children: Tree<T>[] };

/** Rows to a tree in their given order; a row whose parent is missing is a root. */
export function buildTree<T extends TemplateNode>(rows: T[]): Tree<T>[] {
  const nodes = new Map(rows.map((r) => [r.id, { ...r, children: [] as Tree<T>[] }]));
  const roots: Tree<T>[] = [];
  for (const n of nodes.values()) {
    const parent = n.parent_id != null ? nodes.get(n.parent_id) : undefined;
    (parent && parent !== n ? parent.children : roots).push(n);
  }
  return roots;
}
