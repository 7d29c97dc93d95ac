import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Answer, Question } from './rules.js';

/** The module's tables (migration 0051); their columns are data of schemas/resources, so typed here, not in schema.ts. */
interface ExamRow { id: number; hospital_id: number; title: string; description: string | null; time_limit_minutes: number; max_attempts: number; status: string }
export interface AttemptRow {
  id: number; hospital_id: number; exam_id: number; user_id: number; seq: number; started_at: string; ends_at: string;
  submitted_at: string | null; status: string; choice_score: number | null; total_score: number | null; max_score: number | null;
  created_at: string; updated_at: string;
}
interface AnswerRow { id: number; hospital_id: number; attempt_id: number; question_id: number; answer: string | null; score: number | null; scored_by: number | null; scored_at: string | null; created_at: string; updated_at: string }
interface ExamDb {
  exams: ExamRow;
  exam_questions: Question & { hospital_id: number; exam_id: number };
  exam_attempts: AttemptRow;
  exam_answers: AnswerRow;
  slides: { id: number; name: string };
}

/** The request-scoped handle (the row scope narrows every table of this module to the user's hospitals), typed. */
export const examDb = (db: Db) => db as unknown as Kysely<ExamDb>;

export const examById = (db: Db, id: number) => examDb(db).selectFrom('exams').selectAll().where('id', '=', id).executeTakeFirst();

/** The published exams of a hospital, newest first. */
export const publishedExams = (db: Db, hospitalId: number) => examDb(db).selectFrom('exams')
  .select(['id', 'title', 'description', 'time_limit_minutes', 'max_attempts', 'status'])
  .where('hospital_id', '=', hospitalId).where('status', '=', 'published').orderBy('id', 'desc').limit(200).execute();

export const questionsOf = (db: Db, examIds: number[]) => examIds.length === 0 ? Promise.resolve([]) : examDb(db).selectFrom('exam_questions')
  .leftJoin('slides', 'slides.id', 'exam_questions.slide_id')
  .select(['exam_questions.id', 'exam_questions.exam_id', 'exam_questions.kind', 'exam_questions.prompt', 'exam_questions.options', 'exam_questions.correct_option',
    'exam_questions.model_answer', 'exam_questions.points', 'exam_questions.slide_id', 'exam_questions.rank', 'slides.name as slide_name'])
  .where('exam_questions.exam_id', 'in', examIds).orderBy('exam_questions.rank').orderBy('exam_questions.id').execute();

export const attemptsOf = (db: Db, userId: number, examIds: number[]) => examIds.length === 0 ? Promise.resolve([]) : examDb(db).selectFrom('exam_attempts')
  .selectAll().where('user_id', '=', userId).where('exam_id', 'in', examIds).orderBy('seq').execute();

export const attemptById = (db: Db, id: number) => examDb(db).selectFrom('exam_attempts').selectAll().where('id', '=', id).executeTakeFirst();

export const answersOf = (db: Db, attemptId: number): Promise<(Answer & { id: number })[]> => examDb(db).selectFrom('exam_answers')
  .select(['id', 'question_id', 'answer', 'score']).where('attempt_id', '=', attemptId).execute();

export async function insertAttempt(db: Db, row: Omit<AttemptRow, 'id' | 'submitted_at' | 'choice_score' | 'total_score' | 'max_score'>): Promise<number> {
  const { id } = await examDb(db).insertInto('exam_attempts').values(row as never).returning('id').executeTakeFirstOrThrow();
  return Number(id);
}

/** One answer per attempt and question: the latest one given replaces the last. */
export async function saveAnswer(db: Db, hospitalId: number, attemptId: number, questionId: number, answer: string): Promise<void> {
  const now = new Date().toISOString();
  const x = examDb(db);
  const found = await x.selectFrom('exam_answers').select('id').where('attempt_id', '=', attemptId).where('question_id', '=', questionId).executeTakeFirst();
  if (found) await x.updateTable('exam_answers').set({ answer, updated_at: now }).where('id', '=', found.id).execute();
  else await x.insertInto('exam_answers').values({ hospital_id: hospitalId, attempt_id: attemptId, question_id: questionId, answer, created_at: now, updated_at: now } as never).execute();
}

/**
 * Closes an in-progress attempt: only the one that finds it in progress writes (two submissions at once: one wins).
 * Returns whether this call did.
 */
export async function closeAttempt(db: Db, attemptId: number, now: string): Promise<boolean> {
  const res = await examDb(db).updateTable('exam_attempts').set({ status: 'submitted', submitted_at: now, updated_at: now })
    .where('id', '=', attemptId).where('status', '=', 'in_progress').executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Writes each question's score as given (a missing answer row is made, so the examiner sees every question). */
export async function writeScores(db: Db, hospitalId: number, attemptId: number, scores: { question_id: number; score: number | null }[], now: string): Promise<void> {
  const x = examDb(db);
  const existing = new Map((await answersOf(db, attemptId)).map((a) => [a.question_id, a.id]));
  for (const s of scores) {
    const id = existing.get(s.question_id);
    if (id) await x.updateTable('exam_answers').set({ score: s.score, updated_at: now }).where('id', '=', id).execute();
    else await x.insertInto('exam_answers').values({ hospital_id: hospitalId, attempt_id: attemptId, question_id: s.question_id, answer: null, score: s.score, created_at: now, updated_at: now } as never).execute();
  }
}

export const answerById = (db: Db, id: number) => examDb(db).selectFrom('exam_answers').selectAll().where('id', '=', id).executeTakeFirst();

export const scoreAnswer = (db: Db, id: number, score: number, by: number, now: string) =>
  examDb(db).updateTable('exam_answers').set({ score, scored_by: by, scored_at: now, updated_at: now }).where('id', '=', id).execute();

export const setAttemptScores = (db: Db, id: number, s: { choice_score: number; total_score: number; max_score: number; status: string }, now: string) =>
  examDb(db).updateTable('exam_attempts').set({ ...s, updated_at: now }).where('id', '=', id).execute();
