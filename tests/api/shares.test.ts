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

    it('sends a share to a user of the slide’s hospital: they alone get one system message with the link, in their language', async () => {
      const technician = await tokenFor(h.app, 'technician');
      const [h1, h2] = await h.db.selectFrom('hospitals').select('id').orderBy('id').execute();
      const now = new Date().toISOString();
      // A user of the other hospital only, and a disabled one of this hospital: neither can receive it.
      const user = async (name: string, hospital: number, status: number) => {
        const { id } = await h.db.insertInto('users').values({ name, realname: name, password_hash: 'x', email: null, phone: null, status, locked: 0, expires_at: null, failed_attempts: 0, login_locked_until: null, extra: '{}', created_at: now, updated_at: now }).returning('id').executeTakeFirstOrThrow();
        await h.db.insertInto('user_hospitals').values({ user_id: id, hospital_id: hospital }).execute();
        return id;
      };
      const elsewhere = await user('share-elsewhere', h2!.id, 1);
      const disabled = await user('share-disabled', h1!.id, 0);
      const count = async (table: 'slide_shares' | 'messages') => Number((await h.db.selectFrom(table).select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
      const [shares, messages] = [await count('slide_shares'), await count('messages')];
      for (const recipient of [elsewhere, disabled, 999_999]) {
        const refused = await call(h.app, 'POST', '/api/shares', { token: technician, lang: 'en-US', payload: { slide_id: slideId, recipient_id: recipient } });
        expect(refused.statusCode).toBe(422);
        expect(refused.json().errors.recipient_id[0]).toMatch(/not in the slide’s hospital/);
      }
      const zh = await call(h.app, 'POST', '/api/shares', { token: technician, lang: 'zh-CN', payload: { slide_id: slideId, recipient_id: elsewhere } });
      expect(zh.json().errors.recipient_id[0]).toContain('不属于该切片所在医院');
      expect([await count('slide_shares'), await count('messages')]).toEqual([shares, messages]);

      const auditor = (await h.db.selectFrom('users').select('id').where('name', '=', 'auditor').executeTakeFirstOrThrow()).id;
      const choices = await call(h.app, 'GET', `/api/shares/recipients?slide_id=${slideId}`, { token: technician });
      expect(choices.json().data.map((u: { id: number }) => u.id)).toContain(auditor);
      expect(choices.json().data.map((u: { id: number }) => u.id)).not.toContain(elsewhere);
      expect((await call(h.app, 'GET', `/api/shares/recipients?slide_id=${otherHospitalSlide}`, { token: technician })).statusCode).toBe(404);

      const made = await call(h.app, 'POST', '/api/shares', { token: technician, payload: { slide_id: slideId, recipient_id: auditor } });
      expect(made.statusCode, made.body).toBe(200);
      const { path, recipient_id: recipientId } = made.json().data;
      expect(recipientId).toBe(auditor);
      expect((await h.db.selectFrom('slide_shares').select('recipient_id').where('id', '=', made.json().data.id).executeTakeFirstOrThrow()).recipient_id).toBe(auditor);
      const told = await h.db.selectFrom('messages').select(['user_id', 'kind', 'type', 'link']).where('message_key', '=', 'message.system.share_received').execute();
      expect(told).toEqual([{ user_id: auditor, kind: 'system', type: 'share', link: path }]);
      expect(await count('messages')).toBe(messages + 1);
      const auditorToken = await tokenFor(h.app, 'auditor');
      const en = (await call(h.app, 'GET', '/api/messages/lists?type=share', { token: auditorToken, lang: 'en-US' })).json().data.data[0];
      const technicianName = (await h.db.selectFrom('users').select('realname').where('name', '=', 'technician').executeTakeFirstOrThrow()).realname;
      expect(en).toMatchObject({ title: `${technicianName} shared slide S1 with you`, link: path, type: 'share' });
      const zhMessage = (await call(h.app, 'GET', '/api/messages/lists?type=share', { token: auditorToken, lang: 'zh-CN' })).json().data.data[0];
      expect(zhMessage.title).toBe(`${technicianName} 向您分享了切片 S1`);
      // The link in the message opens the slide.
      expect((await call(h.app, 'GET', `/api/share/view?token=${new URL(path, 'http://x').searchParams.get('token')}`, {})).statusCode).toBe(200);
      // A share without a recipient tells nobody.
      expect((await call(h.app, 'POST', '/api/shares', { token: technician, payload: { slide_id: slideId } })).statusCode).toBe(200);
      expect(await count('messages')).toBe(messages + 1);
    });
  });
}
