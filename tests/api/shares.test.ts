import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Share links through the API (issue 12): bad input is a translated 422 that writes nothing; a need-login link
 * wants a session of the slide's hospital; only the creator (or an administrator) revokes; another hospital's
 * slide cannot be shared. Tiles, expiry and the page: tests/e2e/share.test.ts.
 */
for (const kind of databases) {
  describe(`share links (${kind})`, () => {
    let h: Harness;
    let slideId = 0;
    let otherHospitalSlide = 0;
    beforeAll(async () => {
      h = await startApp(kind);
      const [h1, h2] = await h.db.selectFrom('hospitals').select('id').orderBy('id').execute();
      const now = new Date().toISOString();
      const add = async (hospital: number, name: string) => (await h.db.insertInto('slides').values({
        hospital_id: hospital.valueOf(), case_id: null, name, file_path: `shares/${name}.tiff`, file_size: 0, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
      } as never).returning('id').executeTakeFirstOrThrow()).id;
      slideId = await add(h1!.id, 'S1');
      otherHospitalSlide = await add(h2!.id, 'S2');
    });
    afterAll(async () => h?.close());

    it('answers bad input with a translated 422 and stores nothing', async () => {
      const token = await tokenFor(h.app, 'technician');
      for (const payload of [{ slide_id: slideId, expires_in_seconds: 1 }, { slide_id: slideId, permissions: { everything: true } }, { slide_id: 'x' }]) {
        const res = await call(h.app, 'POST', '/api/shares', { token, lang: 'en-US', payload });
        expect(res.statusCode).toBe(422);
        expect(res.json().message).toBeTruthy();
      }
      expect(await h.db.selectFrom('slide_shares').select('id').execute()).toEqual([]);
      expect((await call(h.app, 'GET', '/api/share/view?token=short', {})).statusCode).toBe(422);
    });

    it('does not share another hospital’s slide', async () => {
      const token = await tokenFor(h.app, 'technician'); // hospital 1 only
      expect((await call(h.app, 'POST', '/api/shares', { token, payload: { slide_id: otherHospitalSlide } })).statusCode).toBe(404);
    });

    it('wants a session of the slide’s hospital for a need-login link, and lets only its creator revoke it', async () => {
      const technician = await tokenFor(h.app, 'technician');
      const made = await call(h.app, 'POST', '/api/shares', { token: technician, payload: { slide_id: slideId, permissions: { need_login: true } } });
      expect(made.statusCode).toBe(200);
      const { id, token: link, expires_at } = made.json().data;
      // Spec §9: three hours by default.
      expect(Math.round((new Date(expires_at).getTime() - Date.now()) / 60_000)).toBe(180);
      expect((await call(h.app, 'GET', `/api/share/view?token=${link}`, { lang: 'en-US' })).statusCode).toBe(401);
      expect((await call(h.app, 'GET', `/api/share/view?token=${link}`, { token: await tokenFor(h.app, 'sampler') })).statusCode).toBe(200);
      const mine = await call(h.app, 'GET', '/api/shares/mine', { token: technician });
      expect(mine.json().data.map((x: { id: number }) => x.id)).toEqual([id]);
      expect((await call(h.app, 'POST', `/api/shares/${id}/revoke`, { token: await tokenFor(h.app, 'sampler') })).statusCode).toBe(403);
      expect((await call(h.app, 'POST', `/api/shares/${id}/revoke`, { token: technician })).statusCode).toBe(200);
      const after = await call(h.app, 'GET', `/api/share/view?token=${link}`, { token: technician, lang: 'en-US' });
      expect(after.statusCode).toBe(403);
      expect(after.json().message).toBe('This share link has been revoked');
    });
  });
}
