import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Slide making in batch (issue 10): codes scanned by a keyboard-wedge scanner (cassette and slide labels) or chosen
 * (pathology numbers) advance every case one step in one transaction; each code is checked first, and a refusal
 * names the code, in the user's language, and changes nothing. On both databases.
 */
describe.each(databases)('slide making in batch [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  const cases: { id: number; number: string; blocks: string[] }[] = [];
  let waiting: { id: number; number: string };

  const post = (who: string, url: string, payload: object, lang = 'en-US') => call(h.app, 'POST', url, { token: t[who], lang, payload });
  const batch = (step: string, codes: string[], lang = 'en-US', who = 'technician') => post(who, '/api/pathology/make-slides/batch', { step, codes }, lang);
  /** What a refused batch must leave as it was: every case's phase and version, the slides, the timeline. */
  const snapshot = async () => ({
    cases: await h.db.selectFrom('cases').select(['id', 'sub_phase', 'version']).where('id', 'in', [...cases.map((c) => c.id), waiting.id]).orderBy('id').execute(),
    slides: Number((await h.db.selectFrom('slide_sections').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
    timeline: Number((await h.db.selectFrom('case_timeline').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n),
  });
  const subPhase = async (id: number) => (await h.db.selectFrom('cases').select('sub_phase').where('id', '=', id).executeTakeFirstOrThrow()).sub_phase;

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['registrar', 'sampler', 'technician']) t[u] = await tokenFor(h.app, u);
    for (const name of ['批次甲', '批次乙']) {
      const reg = await post('registrar', '/api/pathology/register', { patient_name: name, specimens: [{ name: '胃窦' }] });
      expect(reg.statusCode, reg.body).toBe(200);
      const { id, pathology_number: number } = reg.json().data;
      expect((await post('registrar', `/api/pathology/${id}/receive`, {})).statusCode).toBe(200);
      const lab = (await call(h.app, 'GET', `/api/pathology/${id}/lab`, { token: t.registrar })).json().data;
      const sampled = await post('sampler', `/api/pathology/${id}/sample`, { blocks: [{ specimen_id: lab.specimens[0].id }, { specimen_id: lab.specimens[0].id }] });
      expect(sampled.statusCode, sampled.body).toBe(200);
      const blocks = (await call(h.app, 'GET', `/api/pathology/${id}/lab`, { token: t.registrar })).json().data.blocks.map((b: { block_number: string }) => `${number}-${b.block_number}`);
      cases.push({ id, number, blocks });
    }
    const reg = (await post('registrar', '/api/pathology/register', { patient_name: '批次丙', specimens: [{ name: '皮肤' }] })).json().data;
    waiting = { id: reg.id, number: reg.pathology_number };
  });
  afterAll(async () => h?.close());

  it('scanned block codes and a chosen number advance both cases once, in one go', async () => {
    const before = await snapshot();
    const [a, b] = cases;
    const res = await batch('dehydration', [a.blocks[0], b.number, a.blocks[1]]);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.cases).toEqual([
      { id: a.id, pathology_number: a.number, codes: [a.blocks[0], a.blocks[1]] },
      { id: b.id, pathology_number: b.number, codes: [b.number] },
    ]);
    expect([await subPhase(a.id), await subPhase(b.id)]).toEqual(['embeded', 'embeded']);
    // One timeline row per case, not per code.
    expect((await snapshot()).timeline).toBe(before.timeline + 2);
  });

  it('refuses the whole batch, naming the code, for an unknown code or a case at another step; nothing changes', async () => {
    const [a] = cases;
    const before = await snapshot();
    for (const [lang, text] of [['en-US', 'The code "NOPE-9" is no case, block or slide of this hospital; nothing in the batch was done'],
      ['zh-CN', '条码“NOPE-9”不是本院的病例、蜡块或玻片，批次未执行']] as const) {
      const res = await batch('embeded', [a.blocks[0], 'NOPE-9'], lang);
      expect(res.statusCode).toBe(422);
      expect(res.json().message).toBe(text);
    }
    const wrong = await batch('embeded', [a.number, waiting.number]);
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().message).toBe(`The case of "${waiting.number}" is at the "To receive" stage; nothing in the batch was done`);
    const wrongZh = await batch('embeded', [a.number, waiting.number], 'zh-CN');
    expect(wrongZh.json().message).toBe(`条码“${waiting.number}”的病例处于“待接收”阶段，批次未执行`);
    // A step the cases are not at (they are at embedding).
    expect((await batch('cut', [a.number])).statusCode).toBe(409);
    // Only case_production; bounded input.
    expect((await batch('embeded', [a.number], 'en-US', 'sampler')).statusCode).toBe(403);
    expect((await batch('embeded', [])).statusCode).toBe(422);
    expect((await batch('embeded', ["x'; drop table cases; --"])).statusCode).toBe(422);
    expect((await batch('embeded', Array.from({ length: 201 }, () => a.number))).statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
  });

  it('cutting in batch makes the slides; their labels then advance the cases to covering and diagnosis', async () => {
    const [a, b] = cases;
    expect((await batch('embeded', [a.number, b.number])).statusCode).toBe(200);
    expect((await batch('cut', [a.blocks[1], b.blocks[0]])).statusCode).toBe(200);
    const labels = (await h.db.selectFrom('slide_sections').select(['case_id', 'label']).where('case_id', 'in', [a.id, b.id]).orderBy('id').execute());
    expect(labels.length).toBe(4);
    const slideOf = (id: number) => labels.find((l) => l.case_id === id)!.label!;
    expect((await batch('stain', [slideOf(a.id), slideOf(b.id)])).statusCode).toBe(200);
    expect((await batch('cover', [slideOf(a.id), b.number])).statusCode).toBe(200);
    const done = await h.db.selectFrom('cases').select(['main_phase', 'sub_phase']).where('id', 'in', [a.id, b.id]).execute();
    expect(done).toEqual([{ main_phase: 'diagnosis', sub_phase: 'to_allot' }, { main_phase: 'diagnosis', sub_phase: 'to_allot' }]);
  });

  /** A fresh case sampled with one block, waiting for dehydration. */
  async function sampledCase(name: string) {
    const { id, pathology_number: number } = (await post('registrar', '/api/pathology/register', { patient_name: name, specimens: [{ name: '胃窦' }] })).json().data;
    expect((await post('registrar', `/api/pathology/${id}/receive`, {})).statusCode).toBe(200);
    const lab = (await call(h.app, 'GET', `/api/pathology/${id}/lab`, { token: t.registrar })).json().data;
    expect((await post('sampler', `/api/pathology/${id}/sample`, { blocks: [{ specimen_id: lab.specimens[0].id }] })).statusCode).toBe(200);
    return { id: id as number, number: number as string };
  }

  it('does not find another hospital\'s case by its number: the batch is refused and nothing changes', async () => {
    const c = await sampledCase('批次丁');
    const phase = await subPhase(c.id);
    const other = (await h.db.selectFrom('hospitals').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()).id;
    const own = (await h.db.selectFrom('cases').select('hospital_id').where('id', '=', c.id).executeTakeFirstOrThrow()).hospital_id;
    expect(other).not.toBe(own);
    await h.db.updateTable('cases').set({ hospital_id: other }).where('id', '=', c.id).execute();
    const res = await batch('dehydration', [c.number]);
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toContain(c.number);
    expect(await subPhase(c.id)).toBe(phase);
    await h.db.updateTable('cases').set({ hospital_id: own }).where('id', '=', c.id).execute();
  });

  it('two identical batches at once move the case one step, not two', async () => {
    const c = await sampledCase('批次戊');
    const before = await subPhase(c.id);
    const answers = await Promise.all([batch('dehydration', [c.number]), batch('dehydration', [c.number])]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await subPhase(c.id)).not.toBe(before);
    const rows = await h.db.selectFrom('case_timeline').select('id').where('case_id', '=', c.id).where('action', 'like', '%dehydration%').execute();
    expect(rows.length).toBeLessThanOrEqual(1);
  });
  it('the scan dialog\'s check names each code\'s case and whether it is at the step, in the user\'s language; it writes nothing', async () => {
    const c = await sampledCase('批次己');
    const before = await snapshot();
    const check = (step: string, codes: string[], lang = 'en-US', who = 'technician') => post(who, '/api/pathology/make-slides/check', { step, codes }, lang);
    const res = await check('dehydration', [c.number, `${c.number}-1`, 'NOPE-9', waiting.number, '条码乱码']);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.codes).toEqual([
      { code: c.number, ok: true, case_id: c.id, pathology_number: c.number, message: `${c.number}: ready` },
      { code: `${c.number}-1`, ok: true, case_id: c.id, pathology_number: c.number, message: `${c.number}: ready` },
      { code: 'NOPE-9', ok: false, message: 'No case, block or slide of this hospital' },
      { code: waiting.number, ok: false, case_id: waiting.id, pathology_number: waiting.number, message: `${waiting.number} is at the "To receive" stage` },
      { code: '条码乱码', ok: false, message: 'No case, block or slide of this hospital' },
    ]);
    const zh = (await check('cut', [c.number], 'zh-CN')).json().data.codes[0];
    expect(zh).toMatchObject({ ok: false, message: `${c.number} 处于“脱水”阶段` });
    expect((await check('cut', [c.number], 'en-US', 'sampler')).statusCode).toBe(403);
    expect((await check('cut', [])).statusCode).toBe(422);
    expect((await check('boil', [c.number])).statusCode).toBe(422);
    expect(await snapshot()).toEqual(before);
  });
});
