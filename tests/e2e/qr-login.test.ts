import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { e2eApp, evidence, signIn } from './harness.js';
import en from '../../src/i18n/locales/en-US/pages/qr-login.json';
import zh from '../../src/i18n/locales/zh-CN/pages/qr-login.json';

type Lang = 'zh-CN' | 'en-US';
const words = { 'zh-CN': zh.qrLogin, 'en-US': en.qrLogin } as const;

/**
 * QR login in Chromium (issue 17): a login page shows a code; a second browser context, signed in as `primary`
 * (the phone), opens the code's address and approves; the first lands signed in as primary. The used code is
 * refused on the phone afterwards. In both languages.
 */
describe('QR login in Chromium', () => {
  const pageErrors: string[] = [];

  const app = e2eApp();

  async function fresh(lang: Lang, viewport = { width: 1280, height: 860 }): Promise<Page> {
    const context = await app.browser.newContext({ viewport, locale: lang });
    const page = await context.newPage();
    page.on('pageerror', (e) => pageErrors.push(e.message));
    await page.goto(`${app.url}/login`);
    await page.evaluate((l) => localStorage.setItem('lang', l), lang);
    await page.reload();
    return page;
  }

  for (const lang of ['zh-CN', 'en-US'] as const) {
    it(`a phone signed in as primary approves; the login page lands signed in; the code serves once (${lang})`, async () => {
      const screen = await fresh(lang);
      await screen.getByTestId('qr-login-open').click();
      const image = screen.getByTestId('qr-image');
      await image.waitFor();
      const code = await image.getAttribute('data-code');
      expect(code).toMatch(/^[A-Za-z0-9_-]{16,}$/);
      expect(await screen.getByTestId('qr-login').textContent()).toContain(words[lang].scan);
      await evidence(screen, `qr-login-${lang}.png`);

      const phone = await fresh(lang, { width: 390, height: 800 });
      await signIn(phone, app.url, 'primary', 'dsms-demo');
      await phone.getByTestId('dashboard').waitFor();
      await phone.goto(`${app.url}/h5/qr-login?c=${code}`);
      await phone.getByTestId('qr-approve-yes').waitFor();
      await evidence(phone, `qr-approve-${lang}.png`);
      await phone.getByTestId('qr-approve-yes').click();
      await expect.poll(() => phone.getByTestId('qr-approve-result').textContent()).toBe(words[lang].doneApproved);

      await screen.getByTestId('dashboard').waitFor();
      expect(new URL(screen.url()).pathname.startsWith('/manage')).toBe(true);
      const who = await screen.evaluate(() => sessionStorage.getItem('user_id'));
      const primary = await app.db.selectFrom('users').select('id').where('name', '=', 'primary').executeTakeFirstOrThrow();
      expect(Number(who)).toBe(primary.id);

      // The same code again: refused with its words.
      await phone.goto(`${app.url}/h5/qr-login?c=${code}`);
      await expect.poll(() => phone.getByTestId('qr-approve-result').textContent()).toBe(lang === 'zh-CN' ? '二维码已被使用，请刷新后重新扫描' : 'This QR code has already been used; refresh it and scan again');
      await phone.context().close();
      await screen.context().close();
    });
  }

  it('raised no page errors', () => {
    expect(pageErrors).toEqual([]);
  });
});
