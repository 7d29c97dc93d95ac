import type { Kysely } from 'kysely';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import menus from '../../schemas/menus.json';
import enums from '../../schemas/enums/exams.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import enUS from '../../src/i18n/locales/en-US.json';
import examZh from '../../src/i18n/locales/zh-CN/pages/exams.json';
import examEn from '../../src/i18n/locales/en-US/pages/exams.json';
import { seedDemoTeaching } from '../../server/db/seed/demo-teaching.js';
import { animationsDone, e2eApp, evidence, openMenuPage, type Lang } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const core = { 'zh-CN': zhCN, 'en-US': enUS };
const words = { 'zh-CN': examZh.exam, 'en-US': examEn.exam };
const group = menus.find((m) => m.route_name === 'DepartmentGroup')!;
const fill = (text: string, values: Record<string, string | number>) => text.replace(/\{\{(\w+)\}\}/g, (_, k: string) => String(values[k]));
const exams: Record<Lang, number> = { 'zh-CN': 0, 'en-US': 0 };

/**
 * Teaching and exams (issue 32) in Chromium, in both languages: the signing doctor publishes a draft exam of a choice
 * and a free-text question on the demo slide; the primary doctor takes it (ExamTake), submits, and sees the choice
 * scored and the review; the signing doctor scores the free text (ExamScoring) and the candidate's total follows;
 * the teaching library lists the demo slide with its diagnosis.
 */
describe('teaching and exams in Chromium', () => {
  const app = e2eApp({
    setup: async (server) => {
      const db = server.db as unknown as Kysely<any>; // the module's tables are data (schemas/resources)
      const now = new Date().toISOString();
      const hospital = await db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow();
      const slide = await db.insertInto('slides').values({
        hospital_id: hospital.id, case_id: null, name: 'demo-1.tiff', file_path: 'slides/demo/demo-1.tiff', file_size: 1, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      await seedDemoTeaching(server.db);
      for (const lang of ['zh-CN', 'en-US'] as const) {
        const exam = await db.insertInto('exams').values({ hospital_id: hospital.id, title: `Exam ${lang}`, time_limit_minutes: 30, max_attempts: 1, status: 'draft', created_at: now, updated_at: now })
          .returning('id').executeTakeFirstOrThrow();
        exams[lang] = exam.id;
        const q = { hospital_id: hospital.id, exam_id: exam.id, slide_id: slide.id, created_at: now, updated_at: now };
        await db.insertInto('exam_questions').values([
          { ...q, rank: 1, kind: 'choice', prompt: 'Diagnosis?', options: 'Gastritis\nAtrophic gastritis\nCarcinoma', correct_option: 2, points: 4 },
          { ...q, rank: 2, kind: 'text', prompt: 'Two features?', model_answer: 'Atrophy; metaplasia', points: 6 },
        ]).execute();
      }
    },
  });

  const open = (p: Page, lang: Lang, alias: string) => openMenuPage(p, lang, group, alias, { list: false });

  it.each(['zh-CN', 'en-US'] as const)('publish, take, submit, review, score (%s)', async (lang) => {
    const errors: string[] = [];
    const w = words[lang];
    const title = `Exam ${lang}`;
    const essay = `Atrophy and metaplasia ${lang}`;
    const signer = await app.page(lang, 'signer', { errors });
    await open(signer, lang, 'Exams');
    const row = signer.locator('[data-testid="list-page"][data-alias="Exams"] tbody tr[data-row-key]', { hasText: title });
    await row.locator('[data-action="publish"]').click();
    await signer.getByTestId('confirm-dialog').getByRole('button', { name: core[lang].common.confirm }).click();
    await poll(() => row.textContent()).toContain(enums.exam_status[1].label[lang]);
    await evidence(signer, `exams-${lang}.png`);

    const primary = await app.page(lang, 'primary', { errors });
    await open(primary, lang, 'ExamTake');
    const card = primary.getByTestId(`exam-${exams[lang]}`);
    await card.getByRole('button', { name: w.start }).click();
    const first = primary.getByTestId('question-1');
    await first.getByRole('radio', { name: '2. Atrophic gastritis' }).check();
    const saved = primary.waitForResponse((r) => r.url().includes('/answers') && r.request().method() === 'PUT' && (r.request().postData() ?? '').includes('metaplasia'));
    await primary.getByTestId('question-2').locator('textarea').fill(essay);
    await primary.getByTestId('question-2').locator('textarea').blur();
    expect((await saved).status()).toBe(200);
    expect(await primary.getByTestId('time-left').textContent()).toMatch(/(29|30):\d\d/);
    await evidence(primary, `exam-taking-${lang}.png`);
    await primary.getByRole('button', { name: w.submit }).click();
    await primary.getByRole('dialog').getByRole('button', { name: w.submit }).click();
    await poll(() => primary.getByTestId('total').textContent()).toBe(fill(w.totalPending, { score: 4, max: 10 }));
    expect(await primary.getByTestId('score-1').textContent()).toBe(fill(w.labelled, { label: w.score, value: '4 / 4' }));
    expect(await primary.getByTestId('score-2').textContent()).toBe(fill(w.labelled, { label: w.score, value: w.awaiting }));
    expect(await primary.getByTestId('question-2').textContent()).toContain('Atrophy; metaplasia');
    await animationsDone(primary);
    await evidence(primary, `exam-review-${lang}.png`);

    await open(signer, lang, 'ExamScoring');
    const answer = signer.locator('[data-testid="list-page"][data-alias="ExamScoring"] tbody tr[data-row-key]', { hasText: essay });
    await answer.locator('[data-action="score"]').click();
    const prompt = signer.getByTestId('prompt-dialog');
    await prompt.getByTestId('prompt-input').fill('5');
    await evidence(signer, `exam-scoring-${lang}.png`);
    await prompt.getByTestId('prompt-confirm').click();
    // Scored, the answer leaves the "to score" tab.
    await answer.waitFor({ state: 'detached' });
    await signer.close();

    await primary.reload();
    await poll(() => primary.getByTestId('total').textContent()).toBe(fill(w.total, { score: 9, max: 10 }));

    await open(primary, lang, 'TeachingLibrary');
    const teaching = primary.locator('[data-testid="list-page"][data-alias="TeachingLibrary"] tbody tr[data-row-key]', { hasText: 'demo-1.tiff' });
    await poll(() => teaching.textContent()).toContain('慢性萎缩性胃炎伴肠上皮化生');
    await evidence(primary, `teaching-library-${lang}.png`);
    expect(errors).toEqual([]);
    await primary.close();
  });
});
