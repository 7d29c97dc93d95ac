import type { FilterCondition } from '../../core/filters';
import type { CountQuery } from '../../core/listRequest';

/** Which favourites the page shows: every one, the uncategorised ones, or one category's (by id). */
export type CategoryKey = 'all' | 'none' | number;

/** The address query key of the chosen category; the list page does not own it, so it is kept. */
export const CATEGORY_PARAM = 'category';

/** `?category=` → key; anything unknown is "all", so a stale link still opens the page. */
export function parseCategory(text: string | null): CategoryKey {
  if (text === 'none') return 'none';
  const id = Number(text);
  return text && Number.isSafeInteger(id) && id > 0 ? id : 'all';
}

export const categoryParam = (key: CategoryKey): string | null => (key === 'all' ? null : String(key));

/** The condition the chosen category adds to the list's own filters. */
export function categoryConditions(key: CategoryKey): FilterCondition[] {
  if (key === 'all') return [];
  if (key === 'none') return [{ column: 'category_id', operator: 'empty', condition: 'and' }];
  return [{ column: 'category_id', operator: '=', value: key, condition: 'and' }];
}

/** A list or count query with the category's condition joined (and) to whatever the search bar sent. */
export function withCategory<Q extends Pick<CountQuery, 'filters'>>(query: Q, key: CategoryKey): Q {
  const extra = categoryConditions(key);
  if (!extra.length) return query;
  const current = query.filters ?? [];
  // The search bar's conditions stay one group, so an `or` among them cannot escape the category.
  const joined: FilterCondition[] = current.length ? [{ condition: 'and', child: current }, ...extra] : extra;
  return { ...query, filters: joined };
}
