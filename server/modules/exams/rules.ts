/**
 * What an exam decides, without I/O (server/modules/exams): when an attempt ends, whether it still takes answers,
 * a choice answer's score, what a candidate is shown of a question, and an attempt's totals.
 */

export const MAX_OPTIONS = 20;
export const ANSWER_MAX = 4000;

export interface Question {
  id: number;
  kind: string;
  prompt: string;
  options: string | null;
  correct_option: number | null;
  model_answer: string | null;
  points: number;
  slide_id: number | null;
  rank: number;
}

export interface Answer { question_id: number; answer: string | null; score: number | null }

/** A choice question's options: one a line, blank lines dropped. */
export function optionsOf(text: string | null): string[] {
  return (text ?? '').split(/\r?\n/).map((o) => o.trim()).filter(Boolean).slice(0, MAX_OPTIONS);
}

/** The end of an attempt started at `startedAt` under a limit of `minutes`: the server's clock only. */
export const attemptEnd = (startedAt: Date, minutes: number): Date => new Date(startedAt.getTime() + minutes * 60_000);

/** An attempt takes answers while it is in progress and its end has not passed. */
export const takesAnswers = (attempt: { status: string; ends_at: string }, now: Date): boolean =>
  attempt.status === 'in_progress' && now.getTime() <= Date.parse(attempt.ends_at);

/** A choice answer (the option's number, 1 first) as the question's options allow it, or null when it is none of them. */
export function choiceOf(question: Pick<Question, 'options'>, answer: string): number | null {
  const n = /^\d{1,2}$/.test(answer.trim()) ? Number(answer.trim()) : NaN;
  return n >= 1 && n <= optionsOf(question.options).length ? n : null;
}

/** A choice is scored on submission: the points when it is the correct option, else 0 (unanswered too). */
export const choiceScore = (question: Question, answer: string | null): number =>
  answer !== null && Number(answer) === question.correct_option ? Number(question.points) : 0;

/**
 * A question as its candidate sees it: before the attempt is submitted, never the correct option or model answer
 * (they are not sent at all); after it, with them for the review.
 */
export function candidateQuestion(q: Question, revealed: boolean) {
  const base = { id: q.id, rank: q.rank, kind: q.kind, prompt: q.prompt, options: q.kind === 'choice' ? optionsOf(q.options) : [], points: Number(q.points), slide_id: q.slide_id };
  return revealed ? { ...base, correct_option: q.correct_option, model_answer: q.model_answer } : base;
}

/**
 * An attempt's scores: the choice questions' sum, the total of every score given so far, the most it could be, and
 * whether every question is scored (the free-text ones by the examiner).
 */
export function totals(questions: Question[], answers: Answer[]) {
  const byQuestion = new Map(answers.map((a) => [a.question_id, a]));
  let choice = 0; let total = 0; let max = 0; let complete = true;
  for (const q of questions) {
    const score = byQuestion.get(q.id)?.score ?? null;
    max += Number(q.points);
    if (score === null) complete = false;
    else total += Number(score);
    if (q.kind === 'choice') choice += Number(score ?? 0);
  }
  return { choice_score: choice, total_score: total, max_score: max, complete };
}

/** A free-text question's score as given: a number from 0 to its points, or null when it is outside them. */
export const scoreWithin = (score: number, points: number): number | null =>
  Number.isFinite(score) && score >= 0 && score <= Number(points) ? score : null;
