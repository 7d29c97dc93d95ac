import type { DataProvider } from '../../engine/dataProvider';
import { withCategory, type CategoryKey } from './categoryFilter';

/**
 * The engine's data provider for the favourites list: reads are limited to the chosen category, and
 * every write (move, remark, cancel) is reported so the category counts beside the list follow.
 */
export function categoryProvider(base: DataProvider, key: CategoryKey, onWrite: () => void): DataProvider {
  const reported = <T>(p: Promise<T>) => p.then((v) => { onWrite(); return v; });
  return {
    ...base,
    getList: (resource, request, config) => base.getList(resource, withCategory(request, key), config),
    getCount: (resource, request, config) => base.getCount(resource, withCategory(request, key), config),
    peekList: (resource, request) => base.peekList?.(resource, withCategory(request, key)),
    peekCount: (resource, request) => base.peekCount?.(resource, withCategory(request, key)),
    create: (...args) => reported(base.create(...args)),
    update: (...args) => reported(base.update(...args)),
    deleteMany: (...args) => reported(base.deleteMany(...args)),
  };
}
