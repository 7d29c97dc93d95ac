import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { sendMessages } from '../../server/modules/messages/queries.js';
import { e2eApp, evidence } from './harness.js';
import { enUSBundle as enUS, zhCNBundle as zhCN } from '../../src/i18n/bundles';
import enums from '../../schemas/enums/common.json';

type Lang = 'zh-CN' | 'en-US';
const words = { 'zh-CN': zhCN, 'en-US': enUS } as const;

/**
 * Messages in Chromium (issue 17): `primary` writes to `auditor` from the message centre; the auditor's header bell
 * counts it, the message centre shows it unread, opening it reads it and the badge goes. In both languages.
 */
describe('messages in Chromium', () => {

  const app = e2eApp();

  async function open(lang: Lang, user: string): Promise<Page> {
    return app.page(lang, user);
  }
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`a message written by primary reaches the auditor's bell and is read in the message centre (${lang})`, async () => {
      const t = words[lang].messages;
      const title = `${lang} frozen section at 3`;
      const sender = await open(lang, 'primary');
      await sender.getByTestId('message-bell').click();
      await sender.getByTestId('message-centre').waitFor();
      await sender.getByTestId('message-compose').click();
      await sender.getByTestId('message-recipients').click();
      await sender.getByRole('menuitemcheckbox', { name: /\(auditor\)/ }).click();
      await sender.keyboard.press('Escape');
      await sender.getByTestId('message-title').fill(title);
      await sender.getByTestId('message-content').fill('Please come to the grossing room.');
      await shot(sender, `messages-compose-${lang}`);
      await sender.getByTestId('message-send').click();
      await sender.getByRole('tab', { name: t.sentBox }).click();
      await expect.poll(() => sender.getByTestId('message-row').filter({ hasText: title }).count()).toBe(1);
      await shot(sender, `messages-sent-${lang}`);
      await sender.close();

      const reader = await open(lang, 'auditor');
      await expect.poll(() => reader.getByTestId('message-badge').textContent()).toBe('1');
      await shot(reader, `messages-bell-${lang}`);
      await reader.getByTestId('message-bell').click();
      const row = reader.getByTestId('message-row').filter({ hasText: title });
      await expect.poll(() => row.getAttribute('data-unread')).toBe('1');
      await shot(reader, `messages-centre-${lang}`);
      await row.click();
      await expect.poll(() => reader.getByTestId('message-body').textContent()).toBe('Please come to the grossing room.');
      await expect.poll(() => reader.getByTestId('message-badge').count()).toBe(0);
      await reader.keyboard.press('Escape');
      await expect.poll(() => row.getAttribute('data-unread')).toBe('0');
      await reader.close();
    });
  }

  it("pushes a message sent to primary to primary's open page: the badge rises without a reload or the 30 s poll", async () => {
    const reader = await open('en-US', 'primary');
    const before = Number((await reader.getByTestId('message-badge').count()) ? await reader.getByTestId('message-badge').textContent() : 0);
    // A mark on the page's window: a reload would lose it.
    await reader.evaluate(() => { (window as unknown as { stillHere: boolean }).stillHere = true; });
    // The MQTT client loads on the first key or pointer press (or after 10 s); the bell then subscribes.
    await reader.mouse.click(5, 300);
    await reader.locator('html[data-realtime="live"]').waitFor({ state: 'attached' });
    // The auditor writes through the API from their own page, as the message centre does.
    const writer = await open('en-US', 'auditor');
    const primaryId = (await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow()).id;
    const sent = Date.now();
    const status = await writer.evaluate(async (to) => (await fetch('/api/messages/send', {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${sessionStorage.getItem('access_token')}` },
      body: JSON.stringify({ user_ids: [to], title: 'Pushed', content: 'Live' }),
    })).status, primaryId);
    expect(status).toBe(200);
    await expect.poll(() => reader.getByTestId('message-badge').textContent(), { timeout: 10_000, interval: 20 }).toBe(String(before + 1));
    // Measured and printed, not asserted (the issue asks for under a second; a loaded machine must not fail the test).
    console.log(`message badge updated ${Date.now() - sent} ms after the send`);
    expect(await reader.evaluate(() => (window as unknown as { stillHere?: boolean }).stillHere)).toBe(true);
    await writer.close();
    await reader.close();
  });

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`a message asking for a clinical answer is answered in the message centre: handled, with a note (${lang})`, async () => {
      const t = words[lang].messages;
      const title = `${lang} critical finding`;
      const ids = Object.fromEntries((await app.db.selectFrom('users').select(['id', 'name']).where('name', 'in', ['primary', 'auditor']).execute()).map((u) => [u.name, u.id]));
      const hospital = (await app.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow()).id;
      await sendMessages(app.db, { userId: ids.primary, hospitalId: hospital }, [ids.auditor], { kind: 'message', level: 2, title, content: 'Please call the lab.', clinical: true });
      const reader = await open(lang, 'auditor');
      await reader.goto(`${app.url}/manage/messages`);
      const row = reader.getByTestId('message-row').filter({ hasText: title });
      await expect.poll(() => row.textContent()).toContain(t.clinical.status.none);
      await row.click();
      const answer = reader.getByTestId('clinical-answer');
      await answer.waitFor();
      await reader.getByTestId('clinical-note').fill('Patient recalled.');
      await shot(reader, `messages-clinical-answer-${lang}`);
      const sent = reader.waitForResponse((r) => r.url().endsWith('/api/messages/change-clinical'));
      await reader.getByTestId('clinical-handled').click();
      expect((await sent).status()).toBe(200);
      await expect.poll(() => answer.textContent()).toContain(t.clinical.status.handled);
      const stored = await app.db.selectFrom('messages').select(['clinical_status', 'clinical_note']).where('title', '=', title).executeTakeFirstOrThrow();
      expect(stored).toEqual({ clinical_status: 'handled', clinical_note: 'Patient recalled.' });
      await reader.keyboard.press('Escape');
      await expect.poll(() => row.textContent()).toContain(t.clinical.status.handled);
      await reader.close();
    });
  }

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`an administrator publishes a notice of a chosen type; the reader sees the type and filters by it (${lang})`, async () => {
      const t = words[lang].messages;
      const typeLabel = (value: string) => enums.notice_type.find((o) => o.value === value)!.label[lang];
      const title = `${lang} stain QC failed on batch 7`;
      const admin = await open(lang, 'admin');
      await admin.goto(`${app.url}/manage/messages`);
      await admin.getByRole('button', { name: t.publishNotice }).click();
      await admin.getByTestId('message-title').fill(title);
      await admin.getByTestId('notice-type').click();
      await admin.getByRole('option', { name: typeLabel('quality') }).click();
      await shot(admin, `messages-notice-type-${lang}`);
      await admin.getByTestId('message-send').click();
      await admin.getByRole('tab', { name: t.sentBox }).click();
      await expect.poll(() => admin.getByTestId('message-row').filter({ hasText: title }).count()).toBe(1);
      await admin.close();

      const reader = await open(lang, 'auditor');
      await reader.goto(`${app.url}/manage/messages`);
      const row = reader.getByTestId('message-row').filter({ hasText: title });
      await expect.poll(() => row.getByTestId('message-type').textContent()).toBe(typeLabel('quality'));
      await reader.getByTestId('message-type-filter').click();
      await reader.getByRole('option', { name: typeLabel('quality') }).click();
      // Only quality notices are left (the other language's run published one too), this one among them.
      await expect.poll(async () => [...new Set(await reader.getByTestId('message-type').allTextContents())]).toEqual([typeLabel('quality')]);
      expect(await row.count()).toBe(1);
      await shot(reader, `messages-type-filter-${lang}`);
      await reader.getByTestId('message-type-filter').click();
      await reader.getByRole('option', { name: typeLabel('maintenance') }).click();
      await expect.poll(() => reader.getByTestId('message-row').count()).toBe(0);
      await reader.close();
    });
  }

  it('raised no page errors', () => {
    expect(app.pageErrors).toEqual([]);
  });
});
