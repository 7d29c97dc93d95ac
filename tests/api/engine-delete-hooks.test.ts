import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/connect.js';
import { AppError } from '../../server/http/errors.js';
import type { SessionUser } from '../../server/http/types.js';
import { loadResources, type ResourceDef } from '../../server/resources/definition.js';
import { deleteRows } from '../../server/resources/queries.js';
import { databases, startApp, type Harness } from './harness.js';

/**
 * The delete contract of resource hooks (server/resources/hooks/types.ts): beforeDelete, the delete and
 * afterDelete share one transaction; what beforeDelete returns reaches afterDelete and afterDeleteCommitted;
 * afterDeleteCommitted runs only once the delete has committed. Labels: a tree, so a parent takes its subtree.
 */
describe.each(databases)('resource delete hooks [%s]', (kind) => {
  let h: Harness;
  let labels: ResourceDef;
  const ctx = { creating: false, user: { id: 1, name: 'admin' } as SessionUser };

  const label = async (db: Db, name: string, parentId: number | null = null) => {
    const now = new Date().toISOString();
    const { id } = await db.insertInto('labels').values({ name, en_name: name, parent_id: parentId, color: null, description: null, rank: 0, created_at: now, updated_at: now })
      .returning('id').executeTakeFirstOrThrow();
    return id;
  };
  const names = async (db: Db, ids: number[]) =>
    (await db.selectFrom('labels').select('name').where('id', 'in', ids).orderBy('name').execute()).map((r) => r.name);

  beforeAll(async () => {
    h = await startApp(kind);
    labels = loadResources(fileURLToPath(new URL('../../schemas/resources/', import.meta.url))).find((r) => r.name === 'labels')!;
  });
  afterAll(async () => h.close());

  it("hands beforeDelete's result to afterDelete and afterDeleteCommitted, and commits before the last", async () => {
    const parent = await label(h.db, 'hook-parent');
    const child = await label(h.db, 'hook-child', parent);
    const seen: string[] = [];
    const deleted = await deleteRows(h.db, labels, {
      async beforeDelete(trx, ids) {
        return { read: await names(trx, ids) };
      },
      async afterDelete(trx, ids, _ctx, doomed) {
        // The subtree is gone inside the transaction; what beforeDelete read arrives as it returned it.
        expect([...ids].sort()).toEqual([parent, child].sort());
        expect(await names(trx, ids)).toEqual([]);
        expect(doomed).toEqual({ read: ['hook-parent'] });
        seen.push('afterDelete');
      },
      async afterDeleteCommitted(ids, _ctx, doomed) {
        // Committed: a read outside the transaction no longer finds the rows.
        expect(await names(h.db, ids)).toEqual([]);
        expect(doomed).toEqual({ read: ['hook-parent'] });
        seen.push('afterDeleteCommitted');
      },
    }, [parent], ctx);
    expect(deleted).toBe(2);
    expect(seen).toEqual(['afterDelete', 'afterDeleteCommitted']);
  });

  it('a failing afterDelete takes back the delete and what beforeDelete wrote; nothing runs after the commit', async () => {
    const doomed = await label(h.db, 'hook-kept');
    let committed = false;
    await expect(deleteRows(h.db, labels, {
      async beforeDelete(trx) {
        return label(trx, 'hook-written-before');
      },
      async afterDelete() {
        throw new AppError(409, 'resource.in_use');
      },
      async afterDeleteCommitted() {
        committed = true;
      },
    }, [doomed], ctx)).rejects.toMatchObject({ status: 409 });
    expect(await names(h.db, [doomed])).toEqual(['hook-kept']);
    expect(await h.db.selectFrom('labels').select('id').where('name', '=', 'hook-written-before').execute()).toEqual([]);
    expect(committed).toBe(false);
  });
});
