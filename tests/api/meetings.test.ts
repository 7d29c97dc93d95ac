import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

/**
 * Reading meetings through the API (issue 12), on each database: `meeting_manage` creates and ends; anyone of the
 * hospital joins, takes and hands back control; concurrent takes have exactly one winner; the presenter alone
 * switches slides; another hospital's meeting answers 404; bad input is a translated 422 that stores nothing; every
 * change of state is announced on the hospital's meeting topic. The browser side: tests/e2e/meeting.test.ts.
 */
for (const kind of databases) {
  describe(`reading meetings (${kind})`, () => {
    let h: Harness;
    let h1 = 0;
    let h2 = 0;
    const slides: number[] = [];
    let foreignSlide = 0;
    const announced: { topic: string; payload: { event: string; meeting: { presenter_id: number | null; version: number } } }[] = [];
    const tokens: Record<string, string> = {};
    const token = async (name: string) => (tokens[name] ??= await tokenFor(h.app, name));

    beforeAll(async () => {
      h = await startApp(kind);
      [h1, h2] = (await h.db.selectFrom('hospitals').select('id').orderBy('id').execute()).map((r) => r.id) as [number, number];
      const now = new Date().toISOString();
      const add = async (hospital: number, name: string) => (await h.db.insertInto('slides').values({
        hospital_id: hospital, case_id: null, name, file_path: `meetings/${name}.tiff`, file_size: 0, status: 'ready', has_label: 0, has_macro: 0, created_at: now, updated_at: now,
      } as never).returning('id').executeTakeFirstOrThrow()).id;
      slides.push(await add(h1, 'M1'), await add(h1, 'M2'), await add(h1, 'M3'));
      foreignSlide = await add(h2, 'M-OTHER');
      // What the server tells the hospital: caught where the routes send it (the realtime hub is one object).
      const publish = h.app.realtime.publish.bind(h.app.realtime);
      h.app.realtime.publish = async (topic, payload) => {
        announced.push({ topic, payload: payload as (typeof announced)[number]['payload'] });
        return publish(topic, payload);
      };
    });
    afterAll(async () => h?.close());

    const create = async (name = 'Tumour board', who = 'primary') => {
      const res = await call(h.app, 'POST', '/api/meetings', { token: await token(who), payload: { name, slide_ids: [slides[0], slides[1]], start_at: '2026-11-24 18:00:00' } });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().data as { id: number; presenter_id: number; slide_id: number; cover_slide_id: number; version: number; start_at: string; hospital_id: number };
    };

    it('creates a meeting that its hospital lists, joins and reads, the host presenting the first slide', async () => {
      const m = await create();
      const primary = await userId(h.db, 'primary');
      expect(m).toMatchObject({ presenter_id: primary, slide_id: slides[0], cover_slide_id: slides[0], hospital_id: h1, start_at: '2026-11-24T18:00:00.000Z' });
      const list = await call(h.app, 'GET', '/api/meetings?status=open', { token: await token('technician') });
      expect(list.statusCode).toBe(200);
      expect(list.json().data.data.map((x: { id: number }) => x.id)).toContain(m.id);
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/join`, { token: await token('technician') })).statusCode).toBe(200);
      const detail = (await call(h.app, 'GET', `/api/meetings/${m.id}`, { token: await token('technician') })).json().data;
      expect(detail.participants.map((p: { name: string }) => p.name)).toEqual(['primary', 'technician']);
      expect(detail.slides.map((s: { id: number }) => s.id)).toEqual([slides[0], slides[1]]);
      expect(announced.at(-1)).toMatchObject({ topic: `dsms/h/${h1}/meetings/${m.id}`, payload: { event: 'joined' } });
      // The hospital topic reaches users of every subspecialty directory: slides by id, never their names.
      const said = announced.at(-1)!.payload.meeting as unknown as Record<string, unknown>;
      expect(said.slide_ids).toEqual([slides[0], slides[1]]);
      expect(said).not.toHaveProperty('slides');
    });

    it('gives control to exactly one of several participants taking it at once, and takes it back on hand-back', async () => {
      const m = await create('Race');
      // None of them holds meeting_manage (a manager may take control from anyone, by design).
      const takers = ['technician', 'registrar', 'sampler', 'qc', 'scanner', 'clinician'];
      for (const who of takers) expect((await call(h.app, 'POST', `/api/meetings/${m.id}/join`, { token: await token(who) })).statusCode).toBe(200);
      const before = announced.length;
      const answers = await Promise.all(takers.map(async (who) => ({ who, res: await call(h.app, 'POST', `/api/meetings/${m.id}/control/take`, { token: await token(who), lang: 'en-US' }) })));
      const winners = answers.filter((a) => a.res.statusCode === 200);
      expect(winners).toHaveLength(1);
      for (const loser of answers.filter((a) => a.res.statusCode !== 200)) {
        expect(loser.res.statusCode).toBe(409);
        expect(loser.res.json().message).toMatch(/is presenting|took control/);
      }
      const winner = await userId(h.db, winners[0]!.who);
      const row = await h.db.selectFrom('meetings').select(['presenter_id']).where('id', '=', m.id).executeTakeFirstOrThrow();
      expect(row.presenter_id).toBe(winner);
      const states = announced.slice(before).filter((a) => a.payload.event === 'state');
      expect(states.map((a) => a.payload.meeting.presenter_id)).toEqual([winner]);

      // Only the presenter hands back; control returns to the host.
      const other = takers.find((t) => t !== winners[0]!.who)!;
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/control/release`, { token: await token(other) })).statusCode).toBe(403);
      const back = await call(h.app, 'POST', `/api/meetings/${m.id}/control/release`, { token: await token(winners[0]!.who) });
      expect(back.statusCode).toBe(200);
      expect(back.json().data.presenter_id).toBe(await userId(h.db, 'primary'));
      // The host may take it from a participant; a participant may not take it from another participant.
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/control/take`, { token: await token('qc') })).statusCode).toBe(200);
      const held = await call(h.app, 'POST', `/api/meetings/${m.id}/control/take`, { token: await token('scanner'), lang: 'zh-CN' });
      expect(held.statusCode).toBe(409);
      expect(held.json().message).toContain('正在主讲');
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/control/take`, { token: await token('primary') })).json().data.presenter_id).toBe(await userId(h.db, 'primary'));
    });

    it('returns control to the host when the presenter leaves, and lists only those still there', async () => {
      const m = await create('Leaving');
      await call(h.app, 'POST', `/api/meetings/${m.id}/join`, { token: await token('technician') });
      await call(h.app, 'POST', `/api/meetings/${m.id}/join`, { token: await token('qc') });
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/control/take`, { token: await token('technician') })).statusCode).toBe(200);
      const left = await call(h.app, 'POST', `/api/meetings/${m.id}/leave`, { token: await token('technician') });
      expect(left.statusCode).toBe(200);
      expect(left.json().data.presenter_id).toBe(await userId(h.db, 'primary'));
      expect(left.json().data.participants.map((p: { name: string }) => p.name)).toEqual(['primary', 'qc']);
      // Leaving twice, or without having joined, changes nothing.
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/leave`, { token: await token('technician') })).json().data.participants).toHaveLength(2);
      // The host leaving while presenting lets control go: a participant may take it.
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/leave`, { token: await token('primary') })).json().data.presenter_id).toBeNull();
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/control/take`, { token: await token('qc') })).json().data.presenter_id).toBe(await userId(h.db, 'qc'));
    });

    it('lets only the presenter switch to one of the meeting’s slides', async () => {
      const m = await create('Slides');
      await call(h.app, 'POST', `/api/meetings/${m.id}/join`, { token: await token('technician') });
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/slide`, { token: await token('technician'), payload: { slide_id: slides[1] } })).statusCode).toBe(403);
      const notIn = await call(h.app, 'POST', `/api/meetings/${m.id}/slide`, { token: await token('primary'), lang: 'en-US', payload: { slide_id: slides[2] } });
      expect(notIn.statusCode).toBe(422);
      expect(notIn.json().message).toBe('That slide is not part of this meeting');
      const moved = await call(h.app, 'POST', `/api/meetings/${m.id}/slide`, { token: await token('primary'), payload: { slide_id: slides[1] } });
      expect(moved.json().data).toMatchObject({ slide_id: slides[1], version: m.version + 1 });
      expect(announced.at(-1)).toMatchObject({ topic: `dsms/h/${h1}/meetings/${m.id}`, payload: { event: 'state' } });
    });

    it('answers another hospital’s meeting as not found, and keeps it out of the list', async () => {
      const now = new Date().toISOString();
      const admin = await userId(h.db, 'admin');
      const { id } = await h.db.insertInto('meetings').values({
        hospital_id: h2, name: 'Elsewhere', cover_slide_id: foreignSlide, start_at: now, created_by: admin, presenter_id: admin, slide_id: foreignSlide, status: 'open', ended_at: null, created_at: now, updated_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      const technician = await token('technician'); // hospital 1 only
      for (const [method, url] of [['GET', `/api/meetings/${id}`], ['POST', `/api/meetings/${id}/join`], ['POST', `/api/meetings/${id}/leave`], ['POST', `/api/meetings/${id}/control/take`], ['POST', `/api/meetings/${id}/end`]] as const) {
        const res = await call(h.app, method, url, { token: technician, lang: 'en-US' });
        expect([403, 404], url).toContain(res.statusCode);
      }
      expect((await call(h.app, 'GET', `/api/meetings/${id}`, { token: technician, lang: 'en-US' })).json().message).toBe('Meeting not found');
      const list = await call(h.app, 'GET', '/api/meetings', { token: technician });
      expect(list.json().data.data.map((x: { id: number }) => x.id)).not.toContain(id);
      // Nor can a meeting be made of another hospital's slide.
      const res = await call(h.app, 'POST', '/api/meetings', { token: await token('primary'), lang: 'en-US', payload: { name: 'X', slide_ids: [foreignSlide] } });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(`These slides do not exist or belong to another hospital: ${foreignSlide}`);
    });

    it('refuses creating and ending to a user without meeting_manage', async () => {
      const m = await create('Managed');
      const technician = await token('technician');
      const made = await call(h.app, 'POST', '/api/meetings', { token: technician, lang: 'en-US', payload: { name: 'Mine', slide_ids: [slides[0]] } });
      expect(made.statusCode).toBe(403);
      expect(made.json().message).toContain('meeting_manage');
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/end`, { token: technician })).statusCode).toBe(403);
      expect((await call(h.app, 'PATCH', `/api/meetings/${m.id}`, { token: technician, payload: { name: 'Renamed' } })).statusCode).toBe(403);
    });

    it('answers bad input with a translated 422 and stores nothing', async () => {
      const count = async () => (await h.db.selectFrom('meetings').select('id').execute()).length;
      const before = await count();
      const primary = await token('primary');
      const bad = [
        { name: '', slide_ids: [slides[0]] },
        { name: '   ', slide_ids: [slides[0]] },
        { name: 'x'.repeat(101), slide_ids: [slides[0]] },
        { name: 'No slides', slide_ids: [] },
        { name: 'Too many', slide_ids: Array.from({ length: 51 }, (_, i) => i + 1) },
        { name: 'Bad time', slide_ids: [slides[0]], start_at: 'next tuesday' },
        { name: 'Extra', slide_ids: [slides[0]], evil: 1 },
        { name: 'Bad cover', slide_ids: [slides[0]], cover_slide_id: slides[2] },
        { name: 'Bad id', slide_ids: ['x'] },
      ];
      for (const payload of bad) {
        for (const lang of ['en-US', 'zh-CN']) {
          const res = await call(h.app, 'POST', '/api/meetings', { token: primary, lang, payload });
          expect(res.statusCode, JSON.stringify(payload)).toBe(422);
          expect(res.json().message, JSON.stringify(payload)).toMatch(lang === 'zh-CN' ? /[\u4e00-\u9fff]/ : /^[\x20-\x7e]+$/);
        }
      }
      expect(await count()).toBe(before);
      const m = await create('Edit me');
      const res = await call(h.app, 'PATCH', `/api/meetings/${m.id}`, { token: primary, lang: 'en-US', payload: { start_at: 'not a real date' } });
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe('The meeting time is not a valid date and time');
      expect((await call(h.app, 'PATCH', `/api/meetings/${m.id}`, { token: primary, payload: {} })).statusCode).toBe(422);
      expect((await call(h.app, 'GET', '/api/meetings/0', { token: primary })).statusCode).toBe(422);
      const renamed = await call(h.app, 'PATCH', `/api/meetings/${m.id}`, { token: primary, payload: { name: ' Renamed ', slide_ids: [slides[2]] } });
      expect(renamed.json().data).toMatchObject({ name: 'Renamed', slide_id: slides[2], cover_slide_id: slides[2] });
    });

    it('ends a meeting: nobody presents, nobody joins or takes control, and the writes are logged', async () => {
      const m = await create('Ending');
      await call(h.app, 'POST', `/api/meetings/${m.id}/join`, { token: await token('technician') });
      const ended = await call(h.app, 'POST', `/api/meetings/${m.id}/end`, { token: await token('primary') });
      expect(ended.json().data).toMatchObject({ status: 'ended', presenter_id: null });
      expect(announced.at(-1)).toMatchObject({ payload: { event: 'ended' } });
      const join = await call(h.app, 'POST', `/api/meetings/${m.id}/join`, { token: await token('auditor'), lang: 'en-US' });
      expect(join.statusCode).toBe(409);
      expect(join.json().message).toBe('This meeting has ended');
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/control/take`, { token: await token('technician') })).statusCode).toBe(409);
      expect((await call(h.app, 'POST', `/api/meetings/${m.id}/end`, { token: await token('primary') })).statusCode).toBe(409);
      const logged = await h.db.selectFrom('operation_logs').select(['route', 'status_code']).where('path', 'like', `/api/meetings/${m.id}/%`).execute();
      expect(logged).toEqual(expect.arrayContaining([
        { route: '/api/meetings/:id/join', status_code: 200 }, { route: '/api/meetings/:id/end', status_code: 200 }, { route: '/api/meetings/:id/control/take', status_code: 409 },
      ]));
    });
  });
}
