import type { ResourceHooks } from './types.js';

/**
 * The same hooks, also telling `onWritten` the ids of rows written or deleted through the resource API. Users
 * and roles use it so this process drops the cached sessions the change affects (tiles' session cache) at once,
 * instead of after the cache's few seconds. The write's transaction has not committed yet when a write is
 * reported: a session read in that instant is still bounded by the cache's lifetime.
 */
export function reportingWrites(hooks: ResourceHooks, onWritten: (ids: number[]) => void): ResourceHooks {
  return {
    ...hooks,
    async afterWrite(trx, id, data, ctx) {
      await hooks.afterWrite?.(trx, id, data, ctx);
      onWritten([id]);
    },
    async afterDelete(db, ids, ctx) {
      await hooks.afterDelete?.(db, ids, ctx);
      onWritten(ids);
    },
  };
}
