/**
 * A hospital's changes to the menu (issue 31): entries renamed (either language), hidden (`is_show` 0: the page
 * stays reachable, the menu does not show it) or moved among their siblings (`rank`: the position in its group).
 * Kept in the layered store as the document `menus` (kind `menu`), keyed by each entry's `route_name`.
 */
export interface MenuEntryOverride { name?: string; en_name?: string; hidden?: boolean; rank?: number }
export interface MenuOverride { entries?: Record<string, MenuEntryOverride | null> }

interface Node { route_name: string; name: string; en_name: string; is_show: string | number; children?: Node[] }

export const MENU_NAME_MAX = 64;
export const MENU_RANK_MAX = 999;
const MAX_ENTRIES = 500;
const KEYS = new Set(['name', 'en_name', 'hidden', 'rank']);

/** The tree with the override applied: renamed, hidden, each group ordered by its ranks (an entry without one keeps its index as its rank). */
export function applyMenuOverride<T extends Node>(tree: T[], override: MenuOverride | undefined): T[] {
  const entries = override?.entries ?? {};
  if (!Object.keys(entries).length) return tree;
  const walk = (list: T[]): T[] => list
    .map((n, i) => ({ n, ranked: entries[n.route_name]?.rank !== undefined, key: entries[n.route_name]?.rank ?? i, i }))
    // An entry moved to a position goes there, before one that stands there without a rank.
    .sort((a, b) => a.key - b.key || Number(b.ranked) - Number(a.ranked) || a.i - b.i)
    .map(({ n }) => {
      const o = entries[n.route_name];
      const out = { ...n, ...(o?.name ? { name: o.name } : {}), ...(o?.en_name ? { en_name: o.en_name } : {}), ...(o?.hidden ? { is_show: '0' } : {}) };
      return n.children ? { ...out, children: walk(n.children as T[]) } : out;
    });
  return walk(tree);
}

/** What is wrong with an override: unknown entries or keys, names too long or empty, ranks out of range. */
export function menuOverrideProblems(doc: unknown, known: ReadonlySet<string>): { path: string; message: string }[] {
  if (!doc || typeof doc !== 'object' || Array.isArray(doc)) return [{ path: '', message: 'must be an object' }];
  const extra = Object.keys(doc).filter((k) => k !== 'entries');
  const problems = extra.map((k) => ({ path: `/${k}`, message: 'unknown key' }));
  const entries = (doc as MenuOverride).entries ?? {};
  if (typeof entries !== 'object' || Array.isArray(entries)) return [...problems, { path: '/entries', message: 'must be an object' }];
  if (Object.keys(entries).length > MAX_ENTRIES) problems.push({ path: '/entries', message: `at most ${MAX_ENTRIES} entries` });
  for (const [key, o] of Object.entries(entries)) {
    const at = `/entries/${key}`;
    if (!known.has(key)) { problems.push({ path: at, message: 'no such menu entry' }); continue; }
    if (o === null) continue;
    if (typeof o !== 'object' || Array.isArray(o)) { problems.push({ path: at, message: 'must be an object' }); continue; }
    for (const k of Object.keys(o)) if (!KEYS.has(k)) problems.push({ path: `${at}/${k}`, message: 'unknown key' });
    for (const k of ['name', 'en_name'] as const) {
      const v = o[k];
      if (v !== undefined && (typeof v !== 'string' || !v.trim() || v.length > MENU_NAME_MAX)) problems.push({ path: `${at}/${k}`, message: `must be text of 1 to ${MENU_NAME_MAX} characters` });
    }
    if (o.hidden !== undefined && typeof o.hidden !== 'boolean') problems.push({ path: `${at}/hidden`, message: 'must be true or false' });
    if (o.rank !== undefined && !(Number.isInteger(o.rank) && o.rank >= 0 && o.rank <= MENU_RANK_MAX)) problems.push({ path: `${at}/rank`, message: `must be a whole number from 0 to ${MENU_RANK_MAX}` });
  }
  return problems;
}
