import type { FilterCondition } from '../../src/core/filters.js';
import type { ListQuery } from './list-query.js';

/**
 * The value `"$me"` in a filter stands for the signed-in user's id, resolved here on the server, so a page schema
 * can list "mine" (SlideRead: slides of the cases allotted to me) without the browser naming a user. It narrows
 * what the route's permission and scope already allow; it never widens it.
 */
export const CURRENT_USER = '$me';

export function withCurrentUser(q: ListQuery, userId: number): ListQuery {
  const resolve = (list: FilterCondition[]): FilterCondition[] => list.map((c) => (c.child
    ? { ...c, child: resolve(c.child) }
    : c.value === CURRENT_USER ? { ...c, value: userId }
      : Array.isArray(c.value) && c.value.includes(CURRENT_USER) ? { ...c, value: c.value.map((v) => (v === CURRENT_USER ? userId : v)) } : c));
  return { ...q, filter: resolve(q.filter), tabs: q.tabs.map((t) => ({ ...t, filter: resolve(t.filter) })) };
}
