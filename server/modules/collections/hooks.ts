import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import type { SessionUser } from '../../http/types.js';
import { coerceValue } from '../../resources/coerce.js';
import type { ResourceHooks } from '../../resources/hooks/types.js';
import { thumbUrl } from '../slides/hooks.js';
import { categoryNamed, categoryNames, collectedAlready, itemCounts, ownCategory, slideFacts, slideIn } from './queries.js';
import { categoryName, collectableHospitals, fieldError, remark } from './rules.js';

/** null for an empty value; otherwise the integer (the generic layer already refused anything else). */
const idOf = (field: string, value: unknown): number | null =>
  value === null || value === undefined || value === '' ? null : (coerceValue(field, 'integer', value) as number);

/**
 * A slide the user may collect: one they can see (any hospital of theirs; their subspecialty directories, the row scope) and have not collected yet
 * (`exceptId`: the favourite being changed).
 */
export async function checkCollectable(db: Kysely<Database>, user: SessionUser, slideId: number, exceptId?: number): Promise<void> {
  if (!(await slideIn(db, slideId, collectableHospitals(user)))) throw new AppError(404, 'collection.slide_not_found');
  const existing = await collectedAlready(db, user.id, slideId, exceptId);
  if (existing?.category_name) throw new AppError(409, 'collection.already_collected', { category: existing.category_name });
  if (existing) throw new AppError(409, 'collection.already_collected_uncategorised');
}

/** Collection categories: a name unique per user (said in words, not as a constraint), and each row's item count. */
export const categoryHooks: ResourceHooks = {
  consumes: ['item_count'],

  async afterRead(db, rows) {
    const counts = await itemCounts(db, rows.map((r) => r.id));
    return rows.map((r) => ({ ...r, item_count: counts.get(r.id) ?? 0 }));
  },

  async beforeWrite(data, ctx, db) {
    if (!ctx.creating && !('name' in data)) return {};
    const name = categoryName(data.name);
    if (await categoryNamed(db, ctx.user.id, name, ctx.id)) {
      throw new AppError(409, 'collection.category_exists', { name }, { name: [{ key: 'collection.category_exists', params: { name } }] });
    }
    return { name };
  },
};

/**
 * Collected slides: only a slide the user may see (any hospital of theirs), once per user, into one of
 * their own categories. Rows carry what the list shows of the slide: name, thumbnail, case number, patient.
 */
export const collectionHooks: ResourceHooks = {
  consumes: ['slide_name', 'thumb_url', 'case_id', 'pathology_number', 'patient_name', 'category_name'],

  async afterRead(db, rows) {
    const [slides, categories] = await Promise.all([
      slideFacts(db, [...new Set(rows.map((r) => Number(r.slide_id)))]),
      categoryNames(db, [...new Set(rows.map((r) => r.category_id).filter((id): id is number => typeof id === 'number'))]),
    ]);
    return rows.map((r) => {
      const slide = slides.get(Number(r.slide_id));
      return {
        ...r,
        slide_name: slide?.name ?? null,
        thumb_url: thumbUrl(Number(r.slide_id)),
        case_id: slide?.case_id ?? null,
        pathology_number: slide?.pathology_number ?? null,
        patient_name: slide?.patient_name ?? null,
        category_name: typeof r.category_id === 'number' ? categories.get(r.category_id) ?? null : null,
      };
    });
  },

  async beforeWrite(data, ctx, db) {
    const out: Record<string, unknown> = {};
    if (ctx.creating || 'slide_id' in data) {
      const slideId = idOf('slide_id', data.slide_id);
      if (slideId === null) throw fieldError('slide_id', 'collection.field.slide', 'validation.required');
      await checkCollectable(db, ctx.user, slideId, ctx.id);
      out.slide_id = slideId;
    }
    if ('category_id' in data) {
      const categoryId = idOf('category_id', data.category_id);
      if (categoryId !== null && !(await ownCategory(db, ctx.user.id, categoryId))) {
        throw new AppError(422, 'collection.category_not_found', {}, { category_id: [{ key: 'collection.category_not_found' }] });
      }
      out.category_id = categoryId;
    }
    if ('remark' in data) out.remark = remark(data.remark);
    return out;
  },
};
