import { describe, expect, it } from 'vitest';
import { attemptEnd, candidateQuestion, choiceOf, choiceScore, optionsOf, scoreWithin, takesAnswers, totals, type Question } from './rules.js';

const choice: Question = { id: 1, kind: 'choice', prompt: 'Diagnosis?', options: 'Gastritis\n\n Adenoma \nCarcinoma', correct_option: 2, model_answer: null, points: 4, slide_id: 9, rank: 0 };
const text: Question = { id: 2, kind: 'text', prompt: 'Describe', options: null, correct_option: null, model_answer: 'Glands', points: 6, slide_id: null, rank: 1 };

describe('exam rules', () => {
  it('reads options one a line and takes only one of them as a choice', () => {
    expect(optionsOf(choice.options)).toEqual(['Gastritis', 'Adenoma', 'Carcinoma']);
    expect([choiceOf(choice, '3'), choiceOf(choice, '0'), choiceOf(choice, '4'), choiceOf(choice, 'x')]).toEqual([3, null, null, null]);
  });

  it('ends an attempt by the server clock and takes answers until then', () => {
    const end = attemptEnd(new Date('2026-01-01T10:00:00Z'), 30);
    expect(end.toISOString()).toBe('2026-01-01T10:30:00.000Z');
    const attempt = { status: 'in_progress', ends_at: end.toISOString() };
    expect(takesAnswers(attempt, new Date('2026-01-01T10:30:00Z'))).toBe(true);
    expect(takesAnswers(attempt, new Date('2026-01-01T10:30:01Z'))).toBe(false);
    expect(takesAnswers({ ...attempt, status: 'submitted' }, new Date('2026-01-01T10:00:00Z'))).toBe(false);
  });

  it('hides the correct answers until the attempt is submitted', () => {
    expect(candidateQuestion(choice, false)).not.toHaveProperty('correct_option');
    expect(candidateQuestion(text, false)).not.toHaveProperty('model_answer');
    expect(candidateQuestion(choice, true)).toMatchObject({ correct_option: 2, options: ['Gastritis', 'Adenoma', 'Carcinoma'] });
  });

  it('scores choices, sums the totals and knows when every question is scored', () => {
    expect([choiceScore(choice, '2'), choiceScore(choice, '1'), choiceScore(choice, null)]).toEqual([4, 0, 0]);
    expect(totals([choice, text], [{ question_id: 1, answer: '2', score: 4 }, { question_id: 2, answer: 'x', score: null }]))
      .toEqual({ choice_score: 4, total_score: 4, max_score: 10, complete: false });
    expect(totals([choice, text], [{ question_id: 1, answer: '2', score: 4 }, { question_id: 2, answer: 'x', score: 5 }]).complete).toBe(true);
    expect([scoreWithin(6, 6), scoreWithin(-1, 6), scoreWithin(7, 6)]).toEqual([6, null, null]);
  });
});
