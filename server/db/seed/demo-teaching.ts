import type { Kysely } from 'kysely';
import type { Db } from '../connect.js';

/**
 * The teaching library's first slide: the demo gastric biopsy with its diagnosis and what to teach with it, so the
 * Department's teaching library has something to show. Into an empty table only, and only when the demo slide exists.
 */
export async function seedDemoTeaching(db: Db): Promise<void> {
  const loose = db as unknown as Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any -- a table of schemas/resources
  if (await loose.selectFrom('teaching_slides').select('id').limit(1).executeTakeFirst()) return;
  const slide = await db.selectFrom('slides').select(['id', 'hospital_id']).where('file_path', '=', 'slides/demo/demo-1.tiff').executeTakeFirst();
  if (!slide) return;
  const now = new Date().toISOString();
  await loose.insertInto('teaching_slides').values({
    hospital_id: slide.hospital_id, slide_id: slide.id, diagnosis: '慢性萎缩性胃炎伴肠上皮化生',
    notes: '观察固有腺体减少与杯状细胞；与慢性非萎缩性胃炎鉴别', created_at: now, updated_at: now,
  }).execute();
}
