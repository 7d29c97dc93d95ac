import type { Kysely } from 'kysely';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import menus from '../../schemas/menus.json';
import enums from '../../schemas/enums/department.json';
import en from '../../src/i18n/locales/en-US/pages/consult.json';
import zh from '../../src/i18n/locales/zh-CN/pages/consult.json';
import zhCN from '../../src/i18n/locales/zh-CN.json';
import enUS from '../../src/i18n/locales/en-US.json';
import { e2eApp, evidence, openMenuPage, type Lang } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const group = menus.find((m) => m.route_name === 'DepartmentGroup')!;
const words = { 'zh-CN': zh.consult, 'en-US': en.consult };
const core = { 'zh-CN': zhCN, 'en-US': enUS };
const option = (list: 'consultation_mode', v: string, lang: Lang) => enums[list].find((o) => o.value === v)!.label[lang];

/**
 * Consultations (issue 32) in Chromium, in both languages: the signing doctor asks for a remote consultation through
 * the Consultations page's create drawer and issues its link (shown once); an outside expert opens it in a fresh
 * browser without any session, reads the case and writes an opinion; a colleague answers an in-department request
 * with the row step the rule file shows only them; both opinions are then on the case in the diagnosis editor.
 */
describe('consultation in Chromium', () => {
  let caseId = 0;
  let number = '';
  let primaryName = '';
  const app = e2eApp({
    setup: async (server) => {
      const db = server.db as unknown as Kysely<any>;
      const hospital = await db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      number = 'HZ-E2E-0001';
      caseId = (await db.insertInto('cases').values({
        hospital_id: hospital.id, pathology_number: number, case_type: 'routine', main_phase: 'diagnosis', sub_phase: 'to_first', patient_name: '王某',
        gender: 'female', age: 52, age_unit: 'year', specimen_name: 'Gastric biopsy', clinical_diagnosis: 'Gastric ulcer', created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow()).id;
      await db.insertInto('slides').values({
        hospital_id: hospital.id, case_id: caseId, name: `${number}-HE`, file_path: 'consult/e2e.tiff', file_size: 0, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
      }).execute();
      primaryName = (await db.selectFrom('users').select(['realname', 'name']).where('name', '=', 'primary').executeTakeFirstOrThrow()).realname;
    },
  });

  const open = (p: Page, lang: Lang) => openMenuPage(p, lang, group, 'Consultations');

  it.each(['zh-CN', 'en-US'] as const)('a remote expert and a colleague answer; the opinions are in the diagnosis editor (%s)', async (lang) => {
    const errors: string[] = [];
    const expertOpinion = lang === 'zh-CN' ? '低级别上皮内瘤变，未见浸润。' : 'Low-grade dysplasia; no invasion.';
    const colleagueOpinion = lang === 'zh-CN' ? '同意，建议加做 Ki-67。' : 'Agreed; Ki-67 would help.';
    const question = `${lang}: ${lang === 'zh-CN' ? '交界性病变？' : 'Borderline lesion?'}`;

    // The signing doctor asks a colleague (in the department) and an outside expert (remote) through the create drawer.
    const signer = await app.page(lang, 'signer', { errors });
    const list = await open(signer, lang);
    expect(new URL(signer.url()).pathname).toBe('/manage/department/consultation');
    const request = async (mode: 'in_department' | 'remote') => {
      await list.locator('button[data-action="create"]').click();
      const drawer = signer.getByTestId('form-drawer');
      await drawer.locator('#root_pathology_number').fill(number);
      if (mode === 'remote') {
        await drawer.locator('#root_mode').click();
        await signer.getByRole('option', { name: option('consultation_mode', 'remote', lang), exact: true }).click();
        await drawer.locator('#root_expert_name').fill(lang === 'zh-CN' ? '李教授' : 'Prof. Li');
      } else {
        await drawer.locator('#root_consultant_id').click();
        await signer.getByRole('option', { name: primaryName, exact: true }).click();
      }
      await drawer.locator('#root_question').fill(`${question} (${mode})`);
      const created = signer.waitForResponse((r) => r.url().endsWith('/api/department/consultations/store'));
      await drawer.getByTestId('form-save').click();
      expect((await created).status()).toBe(200);
      await drawer.waitFor({ state: 'detached' });
      return list.locator('tbody tr[data-row-key]', { hasText: `${question} (${mode})` });
    };
    await request('in_department');
    const remoteRow = await request('remote');
    await remoteRow.locator('[data-action="link"]').click();
    await signer.getByTestId('confirm-dialog').getByRole('button', { name: core[lang].common.confirm }).click();
    const reveal = signer.getByTestId('reveal-dialog');
    const link = await reveal.getByTestId('reveal-value').inputValue();
    expect(link).toContain('/consult/answer?token=');
    await reveal.getByTestId('reveal-close').click();
    await signer.close();

    // The expert: a browser of their own, no session, only the link.
    const context = await app.browser.newContext({ viewport: { width: 1280, height: 900 }, locale: lang });
    await context.addInitScript((l) => localStorage.setItem('lang', l), lang);
    const expert = await context.newPage();
    expert.on('pageerror', (e) => errors.push(e.message));
    await expert.goto(link);
    await expert.getByTestId('consult-answer').waitFor();
    expect(await expert.getByTestId('consult-case').textContent()).toContain(number);
    expect(await expert.getByTestId('consult-answer').textContent()).toContain(words[lang].page.question);
    await expert.locator('[data-field="opinion"]').fill(expertOpinion);
    await poll(() => expert.locator('[data-action="send-opinion"]').isEnabled()).toBe(true);
    await evidence(expert, `consultation-expert-${lang}.png`, { fullPage: true });
    await expert.locator('[data-action="send-opinion"]').click();
    await expert.getByTestId('consult-sent').waitFor();
    // Single use: the link is closed once answered.
    await expert.reload();
    await expert.getByTestId('consult-refused').waitFor();
    await evidence(expert, `consultation-expert-closed-${lang}.png`);
    await context.close();

    // The colleague asked gives their opinion with the row step only they are offered.
    const primary = await app.page(lang, 'primary', { errors });
    const theirs = (await open(primary, lang)).locator('tbody tr[data-row-key]', { hasText: `${question} (in_department)` });
    await theirs.locator('[data-action="answer"]').click();
    const form = primary.getByTestId('form-dialog');
    await form.getByTestId('form-field-opinion').fill(colleagueOpinion);
    await form.getByTestId('form-confirm').click();
    await poll(() => theirs.locator('[data-action="answer"]').count()).toBe(0);

    // Both opinions are on the case, in the diagnosis editor.
    await primary.goto(`${app.url}/diagnosis/${caseId}`);
    const panel = primary.getByTestId('case-opinions');
    await poll(() => panel.textContent()).toContain(colleagueOpinion);
    expect(await panel.textContent()).toContain(expertOpinion);
    expect(await primary.getByTestId('diagnosis-editor').textContent()).toContain(words[lang].panel.title);
    await evidence(primary, `consultation-diagnosis-${lang}.png`);
    // And on the case's own page.
    await primary.goto(`${app.url}/case/${caseId}`);
    await poll(() => primary.getByTestId('case-opinions').textContent()).toContain(expertOpinion);
    await evidence(primary.getByTestId('case-opinions'), `consultation-case-${lang}.png`);
    expect(errors).toEqual([]);
    await primary.close();
  });
});
