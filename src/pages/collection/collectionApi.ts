import { api, unwrap } from '../../api/client';
import { httpDataProvider, resourceUrl, type ResourceRef } from '../../engine/dataProvider';
import { forgetResourceOptions } from '../../engine/options';
import { categoryConditions } from './categoryFilter';

/** The favourites' two resources (schemas/resources/collection_categories.json, collections.json). */
export const CATEGORIES: ResourceRef = { route: '/api/collection/categories' };
export const ITEMS: ResourceRef = { route: '/api/collection/items' };

export interface Category { id: number; name: string; rank: number; item_count: number }
export interface Totals { all: number; none: number }

export async function listCategories(): Promise<Category[]> {
  const res = await httpDataProvider.getList(CATEGORIES, { pagination: { current: 1, pageSize: 1000 }, sorters: [{ field: 'rank', order: 'asc' }, { field: 'id', order: 'asc' }] });
  return res.data as unknown as Category[];
}

/** "All" and "Uncategorised" in one count call (the generic count API's tabs). */
export async function totals(): Promise<Totals> {
  const tabs = [{ key: 'all', filter: [] }, { key: 'none', filter: categoryConditions('none') }];
  const counts = await httpDataProvider.getCount(ITEMS, { tabs });
  return { all: counts.all ?? 0, none: counts.none ?? 0 };
}

// The edit form's category select caches its options; a changed category list must reach it.
const changed = <T>(p: Promise<T>) => p.finally(() => forgetResourceOptions('collection_categories'));

// Silent: the name dialog shows a refusal (a duplicate name) on its field instead of a toast.
export const createCategory = (name: string) =>
  changed(unwrap<Category>(api.post(resourceUrl(CATEGORIES.route, '/store'), { name }, { silent: true })));
export const renameCategory = (id: number, name: string) =>
  changed(unwrap<Category>(api.patch(resourceUrl(CATEGORIES.route, `/update/${id}`), { name }, { silent: true })));
export const deleteCategory = (id: number) => changed(httpDataProvider.deleteMany(CATEGORIES, [id]));
