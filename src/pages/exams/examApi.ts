import { api, unwrap } from '../../api/client';

/** The exam-taking routes (server/modules/exams/routes.ts). */
const BASE = '/department/exam-take';

export interface AttemptSummary { id: number; seq: number; status: string; ends_at: string; total_score: number | null; max_score: number | null }
export interface OpenExam {
  id: number; title: string; description: string | null; time_limit_minutes: number; max_attempts: number;
  question_count: number; max_score: number; attempts: AttemptSummary[];
}
export interface TakenQuestion {
  id: number; kind: 'choice' | 'text'; prompt: string; options: string[]; points: number; slide_id: number | null; slide_name: string | null;
  thumb_url: string | null; answer: string | null;
  /** Only once the attempt is submitted. */
  correct_option?: number | null; model_answer?: string | null; score?: number | null;
}
export interface AttemptView {
  attempt: AttemptSummary & { exam_id: number; title: string; started_at: string; submitted_at: string | null; choice_score: number | null };
  questions: TakenQuestion[];
  /** The server's clock when it answered: the time left is counted from it, not from this browser's. */
  now: string;
}

export const openExams = () => unwrap<OpenExam[]>(api.get(`${BASE}/exams`));
export const startExam = (id: number) => unwrap<AttemptView>(api.post(`${BASE}/exams/${id}/start`));
export const attemptOf = (id: number) => unwrap<AttemptView>(api.get(`${BASE}/attempts/${id}`));
export const answer = (attempt: number, question: number, value: string) =>
  unwrap<unknown>(api.put(`${BASE}/attempts/${attempt}/answers`, { question_id: question, answer: value }, { allowMultiple: true }));
export const submit = (attempt: number) => unwrap<AttemptView>(api.post(`${BASE}/attempts/${attempt}/submit`));
