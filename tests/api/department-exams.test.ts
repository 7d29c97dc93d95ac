import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Teaching and exams (issue 32): the exam's states are schemas/rules/exams.json's (role, state, one winner of two);
 * the taking is server/modules/exams: the time limit is the server's (an answer after the attempt's end is a
 * translated 422), correct answers are never sent before submission, one attempt unless the exam allows more,
 * choices scored on submission, free text by the examiner only; another hospital's exams are out of reach; the
 * teaching library lists its slides with their diagnosis.
 */
describe.each(databases)('department teaching and exams [%s]', (kind) => {
  let h: Harness;
  let db: Kysely<any>; // the module's tables are data (schemas/resources), not schema.ts's
  const t: Record<string, string> = {};
  let slideId = 0;
  const EXAMS = '/api/department/exams';
  const TAKE = '/api/department/exam-take';
  const send = (who: string, method: 'POST' | 'PUT' | 'PATCH' | 'GET', url: string, payload?: object, lang = 'en-US') => call(h.app, method, url, { token: t[who], lang, payload });
  const step = (who: string, id: number, transition: string) => send(who, 'POST', `${EXAMS}/transition/${id}`, { transition });
  /** A draft exam of a choice (correct: the 2nd option, 4 points) and a free-text question (6 points) on the slide. */
  const newExam = async (over: object = {}) => {
    const exam = await send('signer', 'POST', `${EXAMS}/store`, { title: `Gastric ${kind}`, time_limit_minutes: 30, ...over });
    expect(exam.statusCode, exam.body).toBe(200);
    const id = exam.json().data.id as number;
    const q = (body: object) => send('signer', 'POST', '/api/department/exam-questions/store', { exam_id: id, slide_id: slideId, ...body });
    const choice = await q({ kind: 'choice', prompt: 'The diagnosis?', options: 'Gastritis\nAtrophic gastritis\nCarcinoma', correct_option: 2, points: 4, rank: 1 });
    expect(choice.statusCode, choice.body).toBe(200);
    expect((await q({ kind: 'text', prompt: 'Name two features', model_answer: 'SECRET-MODEL-ANSWER', points: 6, rank: 2 })).statusCode).toBe(200);
    return { id, exam: exam.json().data, questions: (await db.selectFrom('exam_questions').selectAll().where('exam_id', '=', id).orderBy('rank').execute()) as { id: number }[] };
  };
  const published = async (over: object = {}) => {
    const e = await newExam(over);
    expect((await step('signer', e.id, 'publish')).statusCode).toBe(200);
    return e;
  };

  beforeAll(async () => {
    h = await startApp(kind);
    db = h.db as unknown as Kysely<any>;
    const main = await db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow();
    const now = new Date().toISOString();
    slideId = (await h.db.insertInto('slides').values({
      hospital_id: main.id, case_id: null, name: 'TEACH-1', file_path: 'slides/t/teach-1.tiff', file_size: 0, md5: null, vendor: 'generic',
      width: 10, height: 10, levels: 1, mpp: null, objective_power: null, scan_at: null, tile_size: 256, status: 'ready', has_label: 0, has_macro: 0,
      format_note: null, uploaded_by: null, created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow()).id;
    // A role holding exam_manage whose role the rule file does not name: its steps are the rule's to refuse.
    await db.updateTable('roles').set({ extra: JSON.stringify(['exam_manage']) }).where('identification', '=', 'sampler').execute();
    for (const u of ['admin', 'signer', 'primary', 'auditor', 'sampler']) t[u] = await tokenFor(h.app, u);
    t.primaryBranch = await tokenFor(h.app, 'primary');
    const branch = await db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow();
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: t.primaryBranch, payload: { hospital_id: branch.id } })).statusCode).toBe(200);
  }, 60_000);
  afterAll(async () => h?.close());

  it('the menus reach their roles; the teaching library lists a slide with its diagnosis', async () => {
    const menu = async (who: string) => JSON.stringify((await send(who, 'GET', '/api/system_management/users/menu')).json().data);
    expect(await menu('signer')).toMatch(/DepartmentGroup[\s\S]*TeachingLibrary[\s\S]*Exams[\s\S]*ExamScoring[\s\S]*ExamResults/);
    expect(await menu('primary')).toContain('ExamTake');
    expect(await menu('primary')).not.toContain('ExamScoring');
    const made = await send('signer', 'POST', '/api/department/teaching-slides/store', { slide_id: slideId, diagnosis: 'Chronic atrophic gastritis', notes: 'Goblet cells' });
    expect(made.statusCode, made.body).toBe(200);
    expect((await send('primary', 'POST', '/api/department/teaching-slides/store', { slide_id: slideId, diagnosis: 'x' })).statusCode).toBe(403);
    const rows = (await send('primary', 'GET', '/api/department/teaching-slides/lists')).json().data.data as Record<string, unknown>[];
    expect(rows).toContainEqual(expect.objectContaining({ slide_id: slideId, slide_name: 'TEACH-1', diagnosis: 'Chronic atrophic gastritis' }));
    expect((await send('signer', 'POST', '/api/department/teaching-slides/store', { slide_id: 999999, diagnosis: 'x' })).statusCode).toBe(422);
  });

  it('the exam\'s states: permission, role, state, and of two publishes at once one wins', async () => {
    const { id, exam, questions } = await newExam({ status: 'closed' });
    expect(exam.status).toBe('draft');
    expect((await step('primary', id, 'publish')).statusCode).toBe(403);
    const role = await send('sampler', 'POST', `${EXAMS}/transition/${id}`, { transition: 'publish' }, 'zh-CN');
    expect([role.statusCode, role.json().message]).toEqual([422, '您的角色不能执行“发布”']);
    const both = await Promise.all([step('signer', id, 'publish'), step('admin', id, 'publish')]);
    expect(both.map((r) => r.statusCode).filter((c) => c === 200)).toHaveLength(1);
    expect([409, 422]).toContain(both.map((r) => r.statusCode).find((c) => c !== 200));
    const again = await step('signer', id, 'publish');
    expect([again.statusCode, again.json().message]).toEqual([422, 'The record is "Published"; the step "Publish" cannot be taken now']);
    // What candidates answer stays as published.
    const edit = await send('signer', 'PATCH', `/api/department/exam-questions/update/${questions[0].id}`, { points: 100 });
    expect([edit.statusCode, edit.json().message]).toEqual([422, 'The exam has been published; it can no longer be changed (now: published)']);
    expect((await send('signer', 'PATCH', `${EXAMS}/update/${id}`, { time_limit_minutes: 600 })).statusCode).toBe(422);
    expect((await step('signer', id, 'close')).json().data).toMatchObject({ status: 'closed', closed_by: await userId(h.db, 'signer') });
    expect((await send('primary', 'POST', `${TAKE}/exams/${id}/start`)).json().message).toBe('The exam is not published or has closed; it cannot be taken');
  });

  it('a candidate takes an exam: no correct answers before submission, one attempt, choices scored, free text by the examiner', async () => {
    const { id, questions: [choice, text] } = await published();
    expect((await send('primary', 'GET', `${TAKE}/exams`)).json().data.map((e: { id: number }) => e.id)).toContain(id);
    const started = await send('primary', 'POST', `${TAKE}/exams/${id}/start`, { ends_at: '2099-01-01T00:00:00Z' });
    expect(started.statusCode, started.body).toBe(200);
    const { attempt, questions } = started.json().data;
    expect(Date.parse(attempt.ends_at) - Date.parse(attempt.started_at)).toBe(30 * 60_000);
    expect(started.body).not.toContain('SECRET-MODEL-ANSWER');
    expect(questions[0]).not.toHaveProperty('correct_option');
    expect(questions[0]).toMatchObject({ kind: 'choice', options: ['Gastritis', 'Atrophic gastritis', 'Carcinoma'], slide_id: slideId, thumb_url: `/api/data/kfb/thumb/${slideId}` });
    // The examiner's routes are not the candidate's.
    expect((await send('primary', 'GET', `/api/department/exam-questions/lists?exam_id=${id}`)).statusCode).toBe(403);
    const url = `${TAKE}/attempts/${attempt.id}`;
    expect((await send('primary', 'PUT', `${url}/answers`, { question_id: choice.id, answer: '7' })).statusCode).toBe(422);
    expect((await send('primary', 'PUT', `${url}/answers`, { question_id: choice.id, answer: '2' })).statusCode).toBe(200);
    expect((await send('primary', 'PUT', `${url}/answers`, { question_id: text.id, answer: 'Atrophy, metaplasia' })).statusCode).toBe(200);
    expect((await send('auditor', 'GET', url)).statusCode).toBe(404);
    // Starting again resumes the attempt in progress.
    expect((await send('primary', 'POST', `${TAKE}/exams/${id}/start`)).json().data.attempt.id).toBe(attempt.id);

    const submitted = await send('primary', 'POST', `${url}/submit`);
    expect(submitted.statusCode, submitted.body).toBe(200);
    expect(submitted.json().data.attempt).toMatchObject({ status: 'submitted', choice_score: 4, total_score: 4, max_score: 10 });
    expect(submitted.json().data.questions).toEqual([
      expect.objectContaining({ answer: '2', correct_option: 2, score: 4 }),
      expect.objectContaining({ answer: 'Atrophy, metaplasia', model_answer: 'SECRET-MODEL-ANSWER', score: null }),
    ]);
    expect((await send('primary', 'POST', `${url}/submit`)).statusCode).toBe(422);
    const again = await send('primary', 'POST', `${TAKE}/exams/${id}/start`, undefined, 'zh-CN');
    expect([again.statusCode, again.json().message]).toEqual([422, '您已用完该考试的作答次数（1 次）']);

    const answerId = submitted.json().data.questions[1].answer_id as number;
    const score = (who: string, value: unknown, lang = 'en-US') => send(who, 'POST', `${TAKE}/answers/${answerId}/score`, { score: value }, lang);
    expect((await score('primary', 6)).statusCode).toBe(403);
    expect((await score('signer', 7)).json().errors.score[0]).toBe('The score must be between 0 and 6');
    expect((await score('signer', 5)).json().data.attempt).toMatchObject({ status: 'scored', total_score: 9 });
    expect((await send('primary', 'GET', url)).json().data.attempt).toMatchObject({ status: 'scored', total_score: 9, choice_score: 4 });
    const results = (await send('signer', 'GET', `/api/department/exam-attempts/lists?params=${encodeURIComponent(JSON.stringify({ exam_id: id }))}`)).json().data.data;
    expect(results).toEqual([expect.objectContaining({ id: attempt.id, exam_title: `Gastric ${kind}`, status: 'scored', total_score: 9, candidate: expect.any(String) })]);
    const choiceAnswer = submitted.json().data.questions[0].answer_id as number;
    expect((await send('signer', 'POST', `${TAKE}/answers/${choiceAnswer}/score`, { score: 0 })).statusCode).toBe(422);
    const logged = await db.selectFrom('operation_logs').select('route').where('route', 'like', `${TAKE}/%`).execute();
    expect(logged.map((l) => l.route)).toEqual(expect.arrayContaining([`${TAKE}/attempts/:id/submit`, `${TAKE}/answers/:id/score`]));
  });

  it('the time limit is the server\'s: an answer after the attempt\'s end is refused and not written', async () => {
    const { id, questions: [choice] } = await published({ time_limit_minutes: 5, max_attempts: 2 });
    const { attempt } = (await send('auditor', 'POST', `${TAKE}/exams/${id}/start`)).json().data;
    const past = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString();
    await db.updateTable('exam_attempts').set({ started_at: past(6), ends_at: past(1) }).where('id', '=', attempt.id).execute();
    const late = await send('auditor', 'PUT', `${TAKE}/attempts/${attempt.id}/answers`, { question_id: choice.id, answer: '2' }, 'zh-CN');
    expect(late.statusCode).toBe(422);
    expect(late.json().message).toMatch(/^考试时间已到（截止于 .+），不能再作答$/);
    expect(await db.selectFrom('exam_answers').select('id').where('attempt_id', '=', attempt.id).execute()).toEqual([]);
    // Submitting closes it (nothing answered: 0); the exam allows a second attempt, with its own end.
    expect((await send('auditor', 'POST', `${TAKE}/attempts/${attempt.id}/submit`)).json().data.attempt).toMatchObject({ status: 'scored', total_score: 0 });
    const second = (await send('auditor', 'POST', `${TAKE}/exams/${id}/start`)).json().data.attempt;
    expect([second.seq, Date.parse(second.ends_at) > Date.now()]).toEqual([2, true]);
  });

  it('another hospital\'s exams are out of reach', async () => {
    const { id } = await published();
    expect((await send('primaryBranch', 'GET', `${TAKE}/exams`)).json().data.map((e: { id: number }) => e.id)).not.toContain(id);
    expect((await send('primaryBranch', 'POST', `${TAKE}/exams/${id}/start`)).statusCode).toBe(404);
    const { attempt } = (await send('primary', 'POST', `${TAKE}/exams/${id}/start`)).json().data;
    expect((await send('primaryBranch', 'GET', `${TAKE}/attempts/${attempt.id}`)).statusCode).toBe(404);
  });
});
