import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { ingestNow } from '../../server/modules/slides/ingest-now.js';
import { registerSlide } from '../../server/modules/slides/register.js';
import { e2eApp, evidence, viewsSettled } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });

/**
 * Slide share links in Chromium (issue 12): made in the viewer's share tab, opened in a fresh context without a
 * session, showing only what the link permits; once expired or revoked, the page says so and the link's API call
 * and tiles are refused. The tab offers only the flags its user may give (issue 27).
 */
describe('slide sharing in Chromium', () => {
  let slideId = 0;

  const app = e2eApp({
    ownDataDir: true,
    async setup(server) {
      const dir = path.join(server.dataDir!, 'slides', 'e2e');
      fs.mkdirSync(dir, { recursive: true });
      const hospital = await server.db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirstOrThrow();
      const kase = await server.db.selectFrom('cases').select('id').where('hospital_id', '=', hospital.id).where('pathology_number', '=', 'P2026-00001').executeTakeFirstOrThrow();
      const out = path.join(dir, 'SHARE-A.tiff');
      await generateDemoSlide({ out, width: 4096, height: 3072, mpp: 0.25, seed: 31, slideId: 'SHARE-A', label: true });
      slideId = await registerSlide(server.db, server.dataDir!, out, { name: 'SHARE-A', hospital_id: hospital.id, case_id: kase.id, uploaded_by: null });
      await ingestNow(server.db, server.dataDir!, slideId);
      const now = new Date().toISOString();
      await server.db.insertInto('slide_annotations').values({
        slide_id: slideId, hospital_id: hospital.id, user_id: 1, username: 'admin', type: 'rectangle', points: JSON.stringify([[500, 500], [1500, 1200]]),
        name: 'TUMOUR-AREA', description: '', color: '#ff0000', classification: '', length_um: null, area_um2: null, perimeter_um: null, version: 1, created_at: now, updated_at: now,
      }).execute();
    },
  });

  async function signedIn(lang: Lang): Promise<Page> {
    return app.page(lang, 'primary');
  }
  /** A context of its own: no cookie, no session storage, as someone the link was sent to. */
  async function stranger(lang: Lang): Promise<Page> {
    const context = await app.browser.newContext({ viewport: { width: 1440, height: 900 }, locale: lang });
    const page = await context.newPage();
    await page.goto(`${app.url}/404`);
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    return page;
  }
  const shot = (page: Page, name: string) => evidence(page, `${name}.png`);
  const tokenOf = (link: string) => new URL(link).searchParams.get('token')!;
  const tileUrl = (token: string, level = 8) => `${app.url}/api/tiles/share/${token}/${slideId}_files/${level}/0_0.jpeg`;

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`makes a link in the viewer that shows only what it permits, then revokes it (${lang})`, async () => {
      const owner = await signedIn(lang);
      await owner.goto(`${app.url}/slide/view?id=${slideId}`);
      await owner.getByTestId('tab-share').click();
      await owner.getByTestId('share-panel').waitFor();
      await owner.getByTestId('share-diagnosis').click(); // diagnosis on; annotations stay off
      // Sent to the auditor too, who gets a message with the link.
      await owner.getByTestId('share-recipient').click();
      await owner.getByRole('option', { name: /\(auditor\)/ }).click();
      await owner.getByTestId('share-create').click();
      const link = await owner.getByTestId('share-link').inputValue();
      expect(link).toContain('/share/view?token=');
      await shot(owner, `share-panel-${lang}`);
      const auditor = (await app.db.selectFrom('users').select('id').where('name', '=', 'auditor').executeTakeFirstOrThrow()).id;
      const told = await app.db.selectFrom('messages').select(['user_id', 'link']).where('message_key', '=', 'message.system.share_received').where('link', '=', new URL(link).pathname + new URL(link).search).execute();
      expect(told.map((m) => m.user_id)).toEqual([auditor]);
      const reader = await app.page(lang, 'auditor');
      await reader.goto(`${app.url}/manage/messages`);
      const message = reader.getByTestId('message-row').filter({ hasText: 'SHARE-A' }).first();
      await message.waitFor();
      await message.click();
      await shot(reader, `share-message-${lang}`);
      await reader.close();

      const guest = await stranger(lang);
      const tiles: number[] = [];
      guest.on('response', (r) => { if (r.url().includes('/api/tiles/share/')) tiles.push(r.status()); });
      await guest.goto(link);
      await guest.getByTestId('share-view').waitFor();
      await poll(() => tiles.filter((s) => s === 200).length).toBeGreaterThan(0);
      await expect(guest.getByTestId('share-diagnosis').textContent()).resolves.toContain('P2026-00001');
      // Annotations were not shared: neither listed nor drawn, nor in the API answer.
      expect(await guest.getByTestId('share-annotations').count()).toBe(0);
      const api = await guest.request.get(`${app.url}/api/share/view?token=${tokenOf(link)}`);
      expect(api.status()).toBe(200);
      expect((await api.json()).data.annotations).toBeNull();
      // The link opens that slide only: another slide's tiles through it are refused, as are the plain tile routes.
      expect((await guest.request.get(`${app.url}/api/tiles/share/${tokenOf(link)}/999999.dzi`)).status()).toBe(404);
      expect((await guest.request.get(`${app.url}/api/tiles/${slideId}.dzi`)).status()).toBe(401);
      await viewsSettled(guest, 'share-pane');
      await shot(guest, `share-view-${lang}`);

      await owner.getByTestId('share-revoke').first().click();
      await poll(() => owner.getByTestId('share-item').first().getAttribute('data-state')).toBe('revoked');
      expect((await guest.request.get(`${app.url}/api/share/view?token=${tokenOf(link)}`)).status()).toBe(403);
      expect((await guest.request.get(tileUrl(tokenOf(link)))).status()).toBe(403);
      await guest.reload();
      await expect(guest.getByTestId('share-refused').getAttribute('data-reason')).resolves.toBe('revoked');
      await shot(guest, `share-revoked-${lang}`);
      await guest.context().close();
      await owner.close();
    });
  }

  it('offers only the flags the user may give: a technician (no slide_annotation_view) gets no annotations box', async () => {
    const technician = await app.page('en-US', 'technician');
    await technician.goto(`${app.url}/slide/view?id=${slideId}`);
    await technician.getByTestId('tab-share').click();
    await technician.getByTestId('share-panel').waitFor();
    expect(await technician.getByTestId('share-diagnosis').count()).toBe(1);
    expect(await technician.getByTestId('share-need_login').count()).toBe(1);
    expect(await technician.getByTestId('share-annotation').count()).toBe(0);
    await technician.close();
  });

  it('refuses the page, API call and tiles of a link once it has expired', async () => {
    const owner = await signedIn('en-US');
    const bearer = await owner.evaluate(() => sessionStorage.getItem('access_token'));
    const made = await owner.request.post(`${app.url}/api/shares`, {
      headers: { authorization: `Bearer ${bearer}` },
      data: { slide_id: slideId, expires_in_seconds: 30, permissions: { annotation: true } },
    });
    expect(made.status()).toBe(200);
    const { token, path: sharePath, expires_at } = (await made.json()).data;
    const guest = await stranger('en-US');
    await guest.goto(app.url + sharePath);
    await guest.getByTestId('share-view').waitFor();
    await expect(guest.getByTestId('share-annotations').textContent()).resolves.toContain('TUMOUR-AREA');
    // Drawn over the slide once it has opened.
    await poll(() => guest.locator('[data-testid="share-pane"] [data-testid="annotation-overlay"] g *').count()).toBeGreaterThan(0);
    expect((await guest.request.get(tileUrl(token))).status()).toBe(200);
    // Wait out the link's life (30 s: long enough for this busy machine to open the page first), by the server's own
    // clock: its answer turns to 410 once the link has expired.
    const life = Math.max(0, new Date(expires_at).getTime() - Date.now());
    await expect.poll(async () => (await guest.request.get(`${app.url}/api/share/view?token=${token}`)).status(), { timeout: life + 20_000 }).toBe(410);
    expect((await guest.request.get(`${app.url}/api/share/view?token=${token}`)).status()).toBe(410);
    expect((await guest.request.get(tileUrl(token))).status()).toBe(410);
    expect((await guest.request.get(`${app.url}/api/tiles/share/${token}/${slideId}.dzi`)).status()).toBe(410);
    await guest.reload();
    await expect(guest.getByTestId('share-refused').getAttribute('data-reason')).resolves.toBe('expired');
    await shot(guest, 'share-expired-en-US');
    await guest.context().close();
    await owner.close();
  });
});
