import type { Db } from '../connect.js';

/**
 * The primary doctor's favourites: a teaching category holding the first demo slide, so CaseCollection
 * has something to show. Into an empty table only, and only when the demo slides exist.
 */
export async function seedDemoCollections(db: Db): Promise<void> {
  if (await db.selectFrom('collection_categories').select('id').limit(1).executeTakeFirst()) return;
  const doctor = await db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirst();
  // The demo gastric biopsy (demo-slides.ts), not whatever slide a real installation holds.
  const slide = await db.selectFrom('slides').select('id').where('file_path', '=', 'slides/demo/demo-1.tiff').executeTakeFirst();
  if (!doctor || !slide) return;
  const now = new Date().toISOString();
  const { id } = await db.insertInto('collection_categories').values({ user_id: doctor.id, name: '教学病例', rank: 0, created_at: now, updated_at: now })
    .returning('id').executeTakeFirstOrThrow();
  await db.insertInto('collections').values({ user_id: doctor.id, category_id: id, slide_id: slide.id, remark: '典型的慢性萎缩性胃炎，可用于带教', created_at: now }).execute();
}
