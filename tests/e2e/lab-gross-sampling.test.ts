import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import enUS from '../../src/i18n/locales/en-US/pages/case-detail.json';
import zhCN from '../../src/i18n/locales/zh-CN/pages/case-detail.json';
import { e2eApp, evidence } from './harness.js';

type Lang = 'zh-CN' | 'en-US';
const LANGS: Lang[] = ['zh-CN', 'en-US'];
const WORDS = { 'zh-CN': zhCN, 'en-US': enUS };
const poll = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

/** A 64×48 picture with a gradient, as a camera would hand over a JPEG or PNG. */
function gradientPng(): Promise<Buffer> {
  const raw = Buffer.alloc(64 * 48 * 3);
  for (let y = 0; y < 48; y++) {
    for (let x = 0; x < 64; x++) raw.set([x * 4, y * 5, 160], (y * 64 + x) * 3);
  }
  return sharp(raw, { raw: { width: 64, height: 48, channels: 3 } }).png().toBuffer();
}

/**
 * A recogniser standing in for the browser's (headless Chromium has none, or one without a microphone): it
 * records the language it was started in, and the test speaks through it.
 */
const FAKE_SPEECH = `
  window.SpeechRecognition = class {
    constructor() { window.__speech = this; this.started = false; }
    start() { this.started = true; window.__speechLang = this.lang; }
    stop() { this.started = false; this.onend && this.onend(); }
  };`;

/**
 * Gross sampling (issue 10): the sampler describes each specimen (typing, or dictating where the browser has
 * speech recognition: the microphone is shown exactly when it has) and takes a photo with the camera; the
 * photo is previewed, then stored as an image of the case, and the description on the specimen's blocks.
 */
describe('Gross sampling with photo and voice, in Chromium', () => {
  let photoFile = '';
  let photo: Buffer = Buffer.alloc(0);
  const cases: Record<Lang, number> = { 'zh-CN': 0, 'en-US': 0 };

  const app = e2eApp({
    async setup(server) {
      photo = await gradientPng();
      photoFile = path.join(server.dir, 'gross.png');
      fs.writeFileSync(photoFile, photo);
      const { hospital_id } = await server.db.selectFrom('cases').select('hospital_id').where('patient_name', '=', '张伟').executeTakeFirstOrThrow();
      const now = new Date().toISOString();
      for (const lang of LANGS) {
        const id = (await server.db.insertInto('cases').values({
          hospital_id, pathology_number: `E2E-GROSS-${lang}`, patient_name: `E2E 取材 ${lang}`, case_type: 'routine', main_phase: 'sample', sub_phase: 'to_sample',
          expedite_status: 0, extra: '{}', registration_at: now, created_at: now, updated_at: now,
        }).returning('id').executeTakeFirstOrThrow()).id;
        await server.db.insertInto('case_specimens').values({ hospital_id, case_id: id, seq: 1, name: '胃窦', status: 'received', created_at: now, updated_at: now } as never).execute();
        cases[lang] = id;
      }
    },
  });

  const shot = (page: Page, name: string) => evidence(page, `${name}.png`, { fullPage: true });

  for (const lang of LANGS) {
    it(`${lang}: the microphone where the browser has speech, dictation in ${lang}, the photo previewed and stored with the case`, async () => {
      const w = WORDS[lang].lab.sampling;
      const page = await app.page(lang, 'sampler');
      // What this browser really offers: the button is there exactly when the API is.
      const hasSpeech = await page.evaluate(() => 'SpeechRecognition' in window || 'webkitSpeechRecognition' in window);
      await page.goto(`${app.url}/case/${cases[lang]}`);
      await page.getByTestId('sampling-panel').waitFor();
      await page.getByText(w.description.replace('{{name}}', '胃窦')).waitFor();
      expect(await page.getByTestId('sampling-voice-0').count()).toBe(hasSpeech ? 1 : 0);
      await shot(page, `lab-gross-sampling-native-${lang}`);

      // With a recogniser: the microphone shows, listens in the UI's language, and the words join what was typed.
      await page.addInitScript(FAKE_SPEECH);
      await page.reload();
      const voice = page.getByTestId('sampling-voice-0');
      await voice.click();
      await poll(() => page.evaluate(() => (window as unknown as { __speechLang?: string }).__speechLang)).toBe(lang);
      expect(await voice.getAttribute('data-listening')).toBe('true');
      const description = page.getByTestId('sampling-description-0');
      await description.fill(lang === 'zh-CN' ? '灰白色组织一块，' : 'One piece of');
      const said = lang === 'zh-CN' ? '切面实性' : 'grey tissue';
      await page.evaluate((text) => {
        const r = (window as unknown as { __speech: { onresult(e: unknown): void } }).__speech;
        r.onresult({ resultIndex: 0, results: [{ isFinal: true, 0: { transcript: text } }] });
      }, said);
      const expected = lang === 'zh-CN' ? '灰白色组织一块，切面实性' : 'One piece of grey tissue';
      await poll(() => description.inputValue()).toBe(expected);
      await voice.click();
      await poll(() => voice.getAttribute('data-listening')).toBe('false');

      // The photo: chosen through the camera input, previewed as the picture it is.
      const input = page.getByTestId('gross-photo-input');
      expect(await input.getAttribute('accept')).toBe('image/*');
      expect(await input.getAttribute('capture')).toBe('environment');
      await input.setInputFiles(photoFile);
      const preview = page.getByTestId('gross-photo-preview');
      await poll(() => preview.evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`)).toBe('64x48');
      await shot(page, `lab-gross-sampling-form-${lang}`);

      const sampled = page.waitForResponse((r) => r.url().endsWith(`/api/pathology/${cases[lang]}/sample`) && r.request().method() === 'POST');
      const tied = page.waitForResponse((r) => r.url().endsWith(`/api/cases/${cases[lang]}/images`) && r.request().method() === 'POST');
      await page.getByTestId('sampling-submit').click();
      expect((await sampled).status()).toBe(200);
      expect((await tied).status()).toBe(200);
      await page.getByTestId('sampling-panel').waitFor({ state: 'detached' });

      // Stored: the case's image (its bytes served back through the case images API) and the block's description.
      const images = await page.evaluate(async (id) => {
        const token = sessionStorage.getItem('access_token');
        const list = await (await fetch(`/api/cases/${id}/images`, { headers: { authorization: `Bearer ${token}` } })).json();
        const first = list.data[0];
        const bytes = await (await fetch(`/api/cases/images/${first.id}/file`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer();
        return { titles: list.data.map((i: { title: string }) => i.title), size: bytes.byteLength };
      }, cases[lang]);
      expect(images).toEqual({ titles: [w.photo], size: photo.length });
      const blocks = await app.db.selectFrom('case_blocks').select(['block_number', 'description']).where('case_id', '=', cases[lang]).execute();
      expect(blocks).toEqual([{ block_number: '1', description: expected }]);
      // And on the page: the block with its description, the photo among the case's images.
      await poll(() => page.getByTestId('blocks').textContent()).toContain(expected);
      const shown = page.getByTestId('case-images').locator('img');
      await poll(() => shown.evaluate((img: HTMLImageElement) => `${img.naturalWidth}x${img.naturalHeight}`)).toBe('64x48');
      expect(await shown.getAttribute('alt')).toBe(w.photo);
      await shot(page, `lab-gross-sampled-${lang}`);
      await page.close();
      expect(app.pageErrors).toEqual([]);
    }, 120_000);
  }
});
