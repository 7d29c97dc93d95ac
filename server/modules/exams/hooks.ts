import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { coerceValue } from '../../resources/coerce.js';
import type { ResourceHooks, WriteContext } from '../../resources/hooks/types.js';

// The module's tables are data (schemas/resources), not schema.ts's.
type Loose = Kysely<any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const loose = (db: Kysely<Database>) => db as unknown as Loose;
const idOf = (field: string, value: unknown) => (value === null || value === undefined || value === '' ? null : coerceValue(field, 'integer', value) as number);
const fieldRefusal = (field: string, key: 'exam.not_found' | 'exam.not_draft' | 'collection.slide_not_found', params = {}) =>
  new AppError(422, 'error.validation', {}, { [field]: [{ key, params }] });

/** An exam changes (and loses questions) only while it is a draft: candidates answer what was published. */
async function requireDraft(db: Kysely<Database>, examId: number | null, ctx: WriteContext, field = 'exam_id') {
  const exam = examId === null ? undefined : await loose(db).selectFrom('exams').select(['status', 'hospital_id']).where('id', '=', examId).executeTakeFirst();
  if (!exam || (ctx.hospitalId !== undefined && exam.hospital_id !== ctx.hospitalId)) throw fieldRefusal(field, 'exam.not_found');
  if (exam.status !== 'draft') throw new AppError(422, 'exam.not_draft', { status: exam.status });
}

const examOfQuestion = async (db: Kysely<Database>, id: number) =>
  (await loose(db).selectFrom('exam_questions').select('exam_id').where('id', '=', id).executeTakeFirst())?.exam_id as number | undefined ?? null;

export const examHooks: ResourceHooks = {
  async beforeWrite(data, ctx, db) {
    // A state step writes through here with no fields of its own (server/resources/transitions.ts): that is no edit.
    if (!ctx.creating && Object.keys(data).length) await requireDraft(db, ctx.id!, { ...ctx, hospitalId: undefined }, 'id');
    return {};
  },
  async beforeDelete(trx, ids) {
    const open = await loose(trx).selectFrom('exams').select('status').where('id', 'in', ids).where('status', '!=', 'draft').executeTakeFirst();
    if (open) throw new AppError(422, 'exam.not_draft', { status: open.status });
  },
};

export const examQuestionHooks: ResourceHooks = {
  async beforeWrite(data, ctx, db) {
    const current = ctx.creating ? null : await examOfQuestion(db, ctx.id!);
    if (current !== null) await requireDraft(db, current, { ...ctx, hospitalId: undefined });
    if (ctx.creating || 'exam_id' in data) await requireDraft(db, idOf('exam_id', data.exam_id), ctx);
    const slide = idOf('slide_id', data.slide_id);
    if (slide !== null) await requireSlide(db, slide, ctx.hospitalId);
    return {};
  },
  async beforeDelete(trx, ids) {
    const open = await loose(trx).selectFrom('exam_questions').innerJoin('exams', 'exams.id', 'exam_questions.exam_id').select('exams.status')
      .where('exam_questions.id', 'in', ids).where('exams.status', '!=', 'draft').executeTakeFirst();
    if (open) throw new AppError(422, 'exam.not_draft', { status: open.status });
  },
};

/** A slide the user may see (the request's row scope: hospital and subspecialty directories), of the row's hospital. */
async function requireSlide(db: Kysely<Database>, id: number | null, hospitalId: number | undefined) {
  const slide = id === null ? undefined : await db.selectFrom('slides').select('hospital_id').where('id', '=', id).executeTakeFirst();
  if (!slide || (hospitalId !== undefined && slide.hospital_id !== hospitalId)) throw fieldRefusal('slide_id', 'collection.slide_not_found');
}

/** The teaching library holds the hospital's own slides, ones the user may see. */
export const teachingSlideHooks: ResourceHooks = {
  async beforeWrite(data, ctx, db) {
    if (ctx.creating || 'slide_id' in data) await requireSlide(db, idOf('slide_id', data.slide_id), ctx.hospitalId);
    return {};
  },
};
