import { Type } from '@sinclair/typebox';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hasPermission } from '../../http/access.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import { okResponse } from '../../http/responses.js';
import type { TypedApp } from '../../http/types.js';
import { thumbUrl } from '../slides/hooks.js';
import {
  answerById, answersOf, attemptById, attemptsOf, closeAttempt, examById, insertAttempt, publishedExams, questionsOf, saveAnswer, scoreAnswer,
  setAttemptScores, writeScores, type AttemptRow,
} from './queries.js';
import { ANSWER_MAX, attemptEnd, candidateQuestion, choiceOf, choiceScore, scoreWithin, takesAnswers, totals } from './rules.js';

const DbId = Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 });
const Id = Type.Object({ id: DbId });
const tags = ['exams'];
const take = { access: { permission: 'exam_take' } };
const manage = { access: { permission: 'exam_manage' } };
const BASE = '/api/department/exam-take';

/**
 * Taking exams (issue 32, teaching and exams); the exams and their questions themselves are schema resources
 * (schemas/resources/exams.json, exam_questions.json, rule file schemas/rules/exams.json). Everything about time is
 * the server's: an attempt's end is its start plus the exam's limit, by this clock, and an answer after it is
 * refused. A candidate is never sent a correct option or model answer before their attempt is submitted. Choice
 * questions are scored on submission; the examiner (`exam_manage`) scores free text. Every row is its hospital's
 * (the row scope, and the user's chosen hospital here).
 */
export function examRoutes(app: TypedApp, db: Db): void {
  const scope = (request: FastifyRequest) => hospitalScope({ scope: 'hospital' }, request)!;
  const inScope = <T extends { hospital_id: number }>(request: FastifyRequest, row: T | undefined): row is T => !!row && scope(request).includes(row.hospital_id);

  /** The caller's own attempt, or, for an examiner, any of the hospital's; else as absent. */
  const attemptFor = async (request: FastifyRequest, id: number, own = true): Promise<AttemptRow> => {
    const attempt = await attemptById(db, id);
    const examiner = !own && hasPermission(request.auth!, 'exam_manage');
    if (!inScope(request, attempt) || (attempt.user_id !== request.auth!.id && !examiner)) throw new AppError(404, 'exam.attempt_not_found');
    return attempt;
  };

  /** The attempt as its page shows it: the questions (the answers only once submitted), what was answered, the scores. */
  const view = async (attempt: AttemptRow) => {
    const exam = (await examById(db, attempt.exam_id))!;
    const revealed = attempt.status !== 'in_progress';
    const answers = new Map((await answersOf(db, attempt.id)).map((a) => [a.question_id, a]));
    const questions = (await questionsOf(db, [attempt.exam_id])).map((q) => ({
      ...candidateQuestion(q, revealed),
      slide_name: q.slide_name, thumb_url: q.slide_id ? thumbUrl(q.slide_id) : null,
      answer: answers.get(q.id)?.answer ?? null, answer_id: answers.get(q.id)?.id ?? null,
      ...(revealed ? { score: answers.get(q.id)?.score ?? null } : {}),
    }));
    return { attempt: { ...attempt, title: exam.title, time_limit_minutes: exam.time_limit_minutes }, questions, now: new Date().toISOString() };
  };

  /** Scores from the answers as they stand: scored when every question is. */
  const rescore = async (attempt: AttemptRow, now: string) => {
    const s = totals(await questionsOf(db, [attempt.exam_id]), await answersOf(db, attempt.id));
    await setAttemptScores(db, attempt.id, { choice_score: s.choice_score, total_score: s.total_score, max_score: s.max_score, status: s.complete ? 'scored' : 'submitted' }, now);
  };

  app.get(`${BASE}/exams`, { config: take, schema: { tags, summary: 'The published exams of the working hospital, with the caller\'s attempts', response: okResponse() } }, async (request) => {
    const hospital = scope(request)[0];
    const exams = await publishedExams(db, hospital);
    const ids = exams.map((e) => e.id);
    const [questions, attempts] = await Promise.all([questionsOf(db, ids), attemptsOf(db, request.auth!.id, ids)]);
    return ok(exams.map((e) => {
      const own = questions.filter((q) => q.exam_id === e.id);
      return {
        ...e, question_count: own.length, max_score: own.reduce((n, q) => n + Number(q.points), 0),
        attempts: attempts.filter((a) => a.exam_id === e.id).map((a) => ({ id: a.id, seq: a.seq, status: a.status, ends_at: a.ends_at, total_score: a.total_score, max_score: a.max_score })),
      };
    }));
  });

  app.post(`${BASE}/exams/:id/start`, { config: take, schema: { tags, summary: 'Starts (or resumes) an attempt; its end is computed here', params: Id, response: okResponse() } }, async (request) => {
    const exam = await examById(db, request.params.id);
    if (!inScope(request, exam)) throw new AppError(404, 'exam.not_found');
    if (exam.status !== 'published') throw new AppError(422, 'exam.not_published');
    if ((await questionsOf(db, [exam.id])).length === 0) throw new AppError(422, 'exam.no_questions');
    const userId = request.auth!.id;
    const now = new Date();
    const resume = async () => {
      const mine = await attemptsOf(db, userId, [exam.id]);
      const open = mine.find((a) => takesAnswers(a, now));
      if (open) return open;
      if (mine.length >= exam.max_attempts) throw new AppError(422, 'exam.no_attempts_left', { max: exam.max_attempts });
      return { seq: mine.length + 1 };
    };
    const found = await resume();
    if ('id' in found) return ok(await view(found));
    const stamp = now.toISOString();
    const row = {
      hospital_id: exam.hospital_id, exam_id: exam.id, user_id: userId, seq: found.seq, status: 'in_progress',
      started_at: stamp, ends_at: attemptEnd(now, exam.time_limit_minutes).toISOString(), created_at: stamp, updated_at: stamp,
    };
    // Two starts at once: the (exam, user, seq) key lets one in; the other finds its attempt and resumes it.
    const id = await insertAttempt(db, row).catch(async () => {
      const again = await resume();
      if ('id' in again) return again.id;
      throw new AppError(409, 'resource.changed');
    });
    return ok(await view((await attemptById(db, id))!));
  });

  app.get(`${BASE}/attempts/:id`, { config: { access: 'user' as const }, schema: { tags, summary: 'An attempt: its questions, answers and, once submitted, the correct answers and scores', params: Id, response: okResponse() } }, async (request) => {
    if (!hasPermission(request.auth!, 'exam_take') && !hasPermission(request.auth!, 'exam_manage')) throw new AppError(403, 'error.forbidden', { permission: 'exam_take' });
    return ok(await view(await attemptFor(request, request.params.id, false)));
  });

  app.put(`${BASE}/attempts/:id/answers`, {
    config: take,
    schema: { tags, summary: 'Answers one question; refused once the attempt\'s time is up', params: Id, body: Type.Object({ question_id: DbId, answer: Type.String({ maxLength: ANSWER_MAX }) }), response: okResponse() },
  }, async (request) => {
    const attempt = await attemptFor(request, request.params.id);
    if (attempt.status !== 'in_progress') throw new AppError(422, 'exam.already_submitted');
    if (!takesAnswers(attempt, new Date())) throw new AppError(422, 'exam.time_up', { ends_at: attempt.ends_at });
    const question = (await questionsOf(db, [attempt.exam_id])).find((q) => q.id === request.body.question_id);
    if (!question) throw new AppError(422, 'exam.question_unknown');
    let answer = request.body.answer;
    if (question.kind === 'choice') {
      const n = choiceOf(question, answer);
      if (n === null) throw new AppError(422, 'error.validation', {}, { answer: [{ key: 'exam.choice_unknown' }] });
      answer = String(n);
    }
    await saveAnswer(db, attempt.hospital_id, attempt.id, question.id, answer);
    return ok({ question_id: question.id, answer });
  });

  app.post(`${BASE}/attempts/:id/submit`, { config: take, schema: { tags, summary: 'Submits an attempt: choices scored at once', params: Id, response: okResponse() } }, async (request) => {
    const attempt = await attemptFor(request, request.params.id);
    const now = new Date().toISOString();
    if (attempt.status !== 'in_progress' || !(await closeAttempt(db, attempt.id, now))) throw new AppError(422, 'exam.already_submitted');
    const answers = new Map((await answersOf(db, attempt.id)).map((a) => [a.question_id, a.answer]));
    // Choices are scored now; an unanswered free-text question has nothing to score (0); the rest wait for the examiner.
    const scores = (await questionsOf(db, [attempt.exam_id])).map((q) => ({
      question_id: q.id,
      score: q.kind === 'choice' ? choiceScore(q, answers.get(q.id) ?? null) : (answers.get(q.id) ?? '').trim() ? null : 0,
    }));
    await writeScores(db, attempt.hospital_id, attempt.id, scores, now);
    await rescore(attempt, now);
    return ok(await view((await attemptById(db, attempt.id))!));
  });

  app.post(`${BASE}/answers/:id/score`, {
    config: manage,
    schema: { tags, summary: 'The examiner scores a free-text answer of a submitted attempt', params: Id, body: Type.Object({ score: Type.Union([Type.Number(), Type.String({ maxLength: 16 })]) }), response: okResponse() },
  }, async (request) => {
    const answer = await answerById(db, request.params.id);
    if (!inScope(request, answer)) throw new AppError(404, 'exam.answer_not_found');
    const attempt = (await attemptById(db, answer.attempt_id))!;
    if (attempt.status === 'in_progress') throw new AppError(422, 'exam.not_submitted');
    const question = (await questionsOf(db, [attempt.exam_id])).find((q) => q.id === answer.question_id)!;
    if (question.kind !== 'text') throw new AppError(422, 'exam.not_free_text');
    const given = typeof request.body.score === 'number' ? request.body.score : request.body.score.trim() === '' ? NaN : Number(request.body.score);
    const score = scoreWithin(given, question.points);
    if (score === null) throw new AppError(422, 'error.validation', {}, { score: [{ key: 'exam.score_range', params: { points: Number(question.points) } }] });
    const now = new Date().toISOString();
    await scoreAnswer(db, answer.id, score, request.auth!.id, now);
    await rescore(attempt, now);
    return ok({ id: answer.id, score, attempt: await attemptById(db, attempt.id) });
  });
}
