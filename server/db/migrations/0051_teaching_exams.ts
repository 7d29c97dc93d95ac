import type { CreateTableBuilder, Kysely } from 'kysely';
import { isPostgres } from './frozen/dialect.js';

/**
 * The department's teaching and exams (issue 32): `teaching_slides` (a slide of the hospital kept for teaching, with its
 * diagnosis and notes), `exams` (title, time limit, attempts allowed; its states are data of schemas/rules/exams.json),
 * `exam_questions` (on a slide: a choice with its options and the correct one, or free text with a model answer; points),
 * `exam_attempts` (a candidate's sitting: started and ending as the server computed them, the scores) and
 * `exam_answers` (one per attempt and question, with the score given).
 */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = isPostgres(db);
  const id = (pg ? 'serial' : 'integer') as 'integer';
  const table = (name: string) => db.schema.createTable(name)
    .addColumn('id', id, (c) => (pg ? c.primaryKey() : c.primaryKey().autoIncrement()))
    .addColumn('hospital_id', 'integer', (c) => c.notNull().references('hospitals.id').onDelete('cascade'));
  const stamps = (t: CreateTableBuilder<any, any>) => t
    .addColumn('created_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('updated_at', 'varchar(32)', (c) => c.notNull());
  await stamps(table('teaching_slides')
    .addColumn('slide_id', 'integer', (c) => c.notNull().references('slides.id').onDelete('cascade'))
    .addColumn('diagnosis', 'varchar(500)', (c) => c.notNull())
    .addColumn('notes', 'varchar(2000)')
    .addColumn('created_by', 'integer'))
    .execute();
  await db.schema.createIndex('teaching_slides_hospital_slide').on('teaching_slides').columns(['hospital_id', 'slide_id']).unique().execute();
  await stamps(table('exams')
    .addColumn('title', 'varchar(200)', (c) => c.notNull())
    .addColumn('description', 'varchar(2000)')
    .addColumn('time_limit_minutes', 'integer', (c) => c.notNull())
    .addColumn('max_attempts', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('draft'))
    .addColumn('created_by', 'integer')
    .addColumn('published_by', 'integer')
    .addColumn('published_at', 'varchar(32)')
    .addColumn('closed_by', 'integer')
    .addColumn('closed_at', 'varchar(32)'))
    .execute();
  await stamps(table('exam_questions')
    .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
    .addColumn('rank', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('slide_id', 'integer', (c) => c.references('slides.id').onDelete('set null'))
    .addColumn('kind', 'varchar(16)', (c) => c.notNull())
    .addColumn('prompt', 'varchar(2000)', (c) => c.notNull())
    .addColumn('options', 'varchar(2000)')
    .addColumn('correct_option', 'integer')
    .addColumn('model_answer', 'varchar(2000)')
    .addColumn('points', 'double precision', (c) => c.notNull()))
    .execute();
  await db.schema.createIndex('exam_questions_exam').on('exam_questions').columns(['exam_id', 'rank']).execute();
  await stamps(table('exam_attempts')
    .addColumn('exam_id', 'integer', (c) => c.notNull().references('exams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (c) => c.notNull().references('users.id').onDelete('cascade'))
    // The sitting's number for its candidate (1, 2 …): unique with exam and user, so two starts at once make one attempt.
    .addColumn('seq', 'integer', (c) => c.notNull())
    .addColumn('started_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('ends_at', 'varchar(32)', (c) => c.notNull())
    .addColumn('submitted_at', 'varchar(32)')
    .addColumn('status', 'varchar(32)', (c) => c.notNull().defaultTo('in_progress'))
    .addColumn('choice_score', 'double precision')
    .addColumn('total_score', 'double precision')
    .addColumn('max_score', 'double precision'))
    .execute();
  await db.schema.createIndex('exam_attempts_exam_user_seq').on('exam_attempts').columns(['exam_id', 'user_id', 'seq']).unique().execute();
  await stamps(table('exam_answers')
    .addColumn('attempt_id', 'integer', (c) => c.notNull().references('exam_attempts.id').onDelete('cascade'))
    .addColumn('question_id', 'integer', (c) => c.notNull().references('exam_questions.id').onDelete('cascade'))
    .addColumn('answer', 'varchar(4000)')
    .addColumn('score', 'double precision')
    .addColumn('scored_by', 'integer')
    .addColumn('scored_at', 'varchar(32)'))
    .execute();
  await db.schema.createIndex('exam_answers_attempt_question').on('exam_answers').columns(['attempt_id', 'question_id']).unique().execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const name of ['exam_answers', 'exam_attempts', 'exam_questions', 'exams', 'teaching_slides']) await db.schema.dropTable(name).execute();
}
