import type { ResourceHooks } from './types.js';

/**
 * The same hooks, also telling `onWritten` the ids of rows written or deleted through the resource API. Users
 * and roles use it so this process drops the cached sessions the change affects (tiles' session cache) at once,
 * instead of after the cache's few seconds. A write is reported before its transaction commits: a session read
 * in that instant is still bounded by the cache's lifetime. A delete is reported once it has committed.
 */
export function reportingWrites<Doomed>(hooks: ResourceHooks<Doomed>, onWritten: (ids: number[]) => void): ResourceHooks<Doomed> {
  return {
    ...hooks,
    async afterWrite(trx, id, data, ctx) {
      await hooks.afterWrite?.(trx, id, data, ctx);
      onWritten([id]);
    },
    async afterDeleteCommitted(ids, ctx, doomed) {
      await hooks.afterDeleteCommitted?.(ids, ctx, doomed);
      onWritten(ids);
    },
  };
}
