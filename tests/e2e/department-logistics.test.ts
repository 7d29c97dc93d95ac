import type { Kysely } from 'kysely';
import type { Locator, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import menus from '../../schemas/menus.json';
import enums from '../../schemas/enums/department.json';
import { e2eApp, evidence, openMenuPage, type Lang } from './harness.js';

const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const group = menus.find((m) => m.route_name === 'DepartmentGroup')!;
const word = (set: 'logistics_status' | 'delivery_status' | 'follow_status', v: string, lang: Lang) => enums[set].find((o) => o.value === v)!.label[lang];
const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);

/**
 * Logistics, report delivery and follow-up (issue 32), modules of schemas and rule files only, in Chromium in both
 * languages: the general hospital's registrar files a specimen transport to the branch and ships it, the branch's
 * registrar signs for it (the sender is offered no sign step); the registrar dispatches a report delivery and records
 * it delivered; a doctor starts a follow-up of a case, ends it with its result and follows it again, and the case's
 * page shows the record.
 */
describe('logistics, delivery and follow-up in Chromium', () => {
  let caseId = 0;
  let caseNumber = '';
  const app = e2eApp({
    setup: async (server) => {
      const db = server.db as unknown as Kysely<any>;
      const branch = await db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow();
      const main = await db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow();
      // The branch's own desk: a registrar of the branch only, signed in with the demo password.
      const registrar = await db.selectFrom('users').selectAll().where('name', '=', 'registrar').executeTakeFirstOrThrow();
      const { id, ...rest } = registrar;
      const receiver = await db.insertInto('users').values({ ...rest, name: 'receiver', email: 'receiver@demo.dsms' }).returning('id').executeTakeFirstOrThrow();
      const role = await db.selectFrom('user_roles').select('role_id').where('user_id', '=', id).executeTakeFirstOrThrow();
      await db.insertInto('user_roles').values({ user_id: receiver.id, role_id: role.role_id }).execute();
      await db.insertInto('user_hospitals').values({ user_id: receiver.id, hospital_id: branch.id }).execute();
      const now = new Date().toISOString();
      await db.insertInto('report_deliveries').values(['zh-CN', 'en-US'].map((lang) => ({
        hospital_id: main.id, delivery_number: `PS-E2E-${lang}`, status: 'pending', pathology_number: 'P2026-00001', recipient: lang === 'zh-CN' ? '胃肠外科' : 'GI surgery', copies: 1, created_at: now, updated_at: now,
      }))).execute();
      const c = await db.selectFrom('cases').select(['id', 'pathology_number']).where('hospital_id', '=', main.id).orderBy('id').executeTakeFirstOrThrow();
      caseId = Number(c.id);
      caseNumber = c.pathology_number;
    },
  });

  const open = (p: Page, lang: Lang, alias: string) => openMenuPage(p, lang, group, alias);
  const actionsOf = (row: Locator) => row.locator('[data-action]').evaluateAll((els) => els.map((e) => e.getAttribute('data-action')));
  const answer = async (p: Page, text: string) => {
    const prompt = p.getByTestId('prompt-dialog');
    await prompt.getByTestId('prompt-input').fill(text);
    await prompt.getByTestId('prompt-confirm').click();
    await prompt.waitFor({ state: 'detached' });
  };
  const pick = async (p: Page, drawer: Locator, field: string, option: string) => {
    await drawer.locator(`#root_${field}`).click();
    await p.getByRole('option', { name: option, exact: true }).click();
  };
  const save = async (p: Page, route: string) => {
    const drawer = p.getByTestId('form-drawer');
    const created = p.waitForResponse((r) => r.url().endsWith(`${route}/store`));
    await drawer.getByTestId('form-save').click();
    expect((await created).status()).toBe(200);
    await drawer.waitFor({ state: 'detached' });
  };

  it.each(['zh-CN', 'en-US'] as const)('a transport signed by the receiving hospital, a report delivered, a follow-up ended and followed again (%s)', async (lang) => {
    const errors: string[] = [];
    const number = `WL-E2E-${lang}`;
    const registrar = await app.page(lang, 'registrar', { errors });
    const logistics = await open(registrar, lang, 'LogisticsOrders');
    await logistics.locator('button[data-action="create"]').click();
    const drawer = registrar.getByTestId('form-drawer');
    await drawer.locator('#root_order_number').fill(number);
    await pick(registrar, drawer, 'to_hospital_id', lang === 'zh-CN' ? '示范医院分院' : 'Demo Branch Hospital');
    await drawer.locator('#root_specimen_count').fill('2');
    await save(registrar, '/api/department/logistics-orders');
    const sent = logistics.locator('tbody tr[data-row-key]', { hasText: number });
    await poll(() => sent.textContent()).toContain(lang === 'zh-CN' ? '示范医院分院' : 'Demo Branch Hospital');
    expect(await sent.textContent()).toContain(word('logistics_status', 'distributed', lang));
    await poll(() => actionsOf(sent)).toEqual(['ship', 'edit', 'delete']);
    await sent.locator('[data-action="ship"]').click();
    await answer(registrar, lang === 'zh-CN' ? '张师傅' : 'Mr Zhang');
    await poll(() => sent.textContent()).toContain(word('logistics_status', 'in_transit', lang));
    // Signing is the receiving hospital's step: the sender's row offers nothing now.
    expect(await actionsOf(sent)).toEqual([]);

    const receiver = await app.page(lang, 'receiver', { errors });
    const received = (await open(receiver, lang, 'LogisticsOrders')).locator('tbody tr[data-row-key]', { hasText: number });
    await poll(() => actionsOf(received)).toEqual(['sign']);
    await received.locator('[data-action="sign"]').click();
    await answer(receiver, lang === 'zh-CN' ? '完好' : 'Intact');
    await poll(() => received.textContent()).toContain(word('logistics_status', 'signed', lang));
    await evidence(receiver, `logistics-${lang}.png`);
    await receiver.close();

    const deliveries = await open(registrar, lang, 'ReportDeliveries');
    const delivery = deliveries.locator('tbody tr[data-row-key]', { hasText: `PS-E2E-${lang}` });
    await delivery.locator('[data-action="dispatch"]').click();
    await answer(registrar, lang === 'zh-CN' ? '王' : 'Wang');
    await poll(() => delivery.textContent()).toContain(word('delivery_status', 'in_delivery', lang));
    await delivery.locator('[data-action="deliver"]').click();
    const form = registrar.getByTestId('form-dialog');
    await form.getByTestId('form-field-receiver').fill(lang === 'zh-CN' ? '李护士' : 'Nurse Li');
    await form.getByTestId('form-confirm').click();
    // The step's label may read like the state it leads to (Delivered): the row is read again once its buttons are gone.
    await poll(() => actionsOf(delivery)).toEqual([]);
    expect(await delivery.textContent()).toContain(word('delivery_status', 'delivered', lang));
    expect(await delivery.textContent()).toContain(lang === 'zh-CN' ? '李护士' : 'Nurse Li');
    await evidence(registrar, `delivery-${lang}.png`);
    await registrar.close();

    const doctor = await app.page(lang, 'primary', { errors });
    const follow = await open(doctor, lang, 'FollowUps');
    await follow.locator('button[data-action="create"]').click();
    const fDrawer = doctor.getByTestId('form-drawer');
    await pick(doctor, fDrawer, 'case_id', caseNumber);
    await fDrawer.locator('#root_follow_date').fill(day(lang === 'zh-CN' ? 0 : 1));
    await fDrawer.locator('#root_follow_date').press('Tab');
    await fDrawer.locator('#root_content').fill(lang === 'zh-CN' ? '复查肠镜' : 'Repeat colonoscopy');
    await save(doctor, '/api/department/follow-ups');
    const followed = follow.locator('tbody tr[data-row-key]', { hasText: lang === 'zh-CN' ? '复查肠镜' : 'Repeat colonoscopy' });
    await poll(() => followed.textContent()).toContain(word('follow_status', 'following', lang));
    await followed.locator('[data-action="end"]').click();
    await answer(doctor, lang === 'zh-CN' ? '无复发' : 'No recurrence');
    await poll(() => followed.textContent()).toContain(word('follow_status', 'ended', lang));
    await followed.locator('[data-action="refollow"]').click();
    await answer(doctor, day(30));
    await poll(() => followed.textContent()).toContain(day(30));
    expect(await followed.textContent()).toContain(word('follow_status', 'following', lang));
    await evidence(doctor, `follow-ups-${lang}.png`);

    // The case's number links to its page, which lists the case's follow-ups.
    await followed.locator(`a[href="/case/${caseId}"]`).click();
    const onCase = doctor.getByTestId('related-FollowUps');
    await poll(() => onCase.textContent()).toContain(lang === 'zh-CN' ? '无复发' : 'No recurrence');
    expect(await onCase.textContent()).toContain(day(30));
    await onCase.scrollIntoViewIfNeeded();
    await evidence(doctor, `case-follow-ups-${lang}.png`);
    expect(errors).toEqual([]);
    await doctor.close();
  });
});
