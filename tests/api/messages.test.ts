import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../../server/modules/messages/notify.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

interface Inbox { data: { id: number; kind: string; level: number; type?: string; title: string; content: string; read_at: string | null; link: string | null; fromUser?: { realname: string } | null }[]; total: number }
interface Sent { data: { id: number; batch: string; title: string; recipients: number; read: number; to: string[] }[]; total: number }

/** Issue 17, spec §7 `messages/*`: messages reach only their recipients; reading, counting and deleting are each user's own. */
describe.each(databases)('messages [%s]', (kind) => {
  let h: Harness;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    h = await startApp(kind);
    for (const name of ['admin', 'primary', 'auditor', 'signer', 'registrar', 'sampler', 'clinician']) {
      tokens[name] = await tokenFor(h.app, name);
      ids[name] = await userId(h.db, name);
    }
  });
  afterAll(async () => { await h.close(); });

  const get = async <T>(who: string, url: string, lang?: string) => {
    const res = await call(h.app, 'GET', url, { token: tokens[who], lang });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as T;
  };
  const inbox = (who: string, query = '') => get<Inbox>(who, `/api/messages/lists?include=fromUser${query}`);
  const unread = async (who: string) => (await get<{ count: number }>(who, '/api/messages/unread-to-me')).count;
  const send = (who: string, payload: object) => call(h.app, 'POST', '/api/messages/send', { token: tokens[who], payload });
  const rows = async () => Number((await h.db.selectFrom('messages').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);

  it('a message reaches its recipients only; the sender sees one entry with how many read it', async () => {
    const res = await send('primary', { user_ids: [ids.auditor, ids.signer, ids.auditor], title: 'Frozen section at 3', content: 'Please join me.', level: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.recipients).toBe(2);

    const auditor = await inbox('auditor');
    expect(auditor.total).toBe(1);
    expect(auditor.data[0]).toMatchObject({ kind: 'message', level: 1, title: 'Frozen section at 3', content: 'Please join me.', read_at: null });
    expect(auditor.data[0]!.fromUser?.realname).toBeTruthy();
    expect(await unread('auditor')).toBe(1);
    expect(await unread('signer')).toBe(1);
    expect((await inbox('registrar')).total).toBe(0);
    expect((await inbox('primary')).total).toBe(0);

    const read = await call(h.app, 'POST', '/api/messages/mark-as-read', { token: tokens.auditor, payload: { msg_ids: [auditor.data[0]!.id] } });
    expect(read.json().data).toEqual({ changed: 1, unread: 0 });
    expect((await inbox('auditor', '&unread=1')).total).toBe(0);
    const sent = await get<Sent>('primary', '/api/messages/send-by-me');
    expect(sent.total).toBe(1);
    expect(sent.data[0]).toMatchObject({ title: 'Frozen section at 3', recipients: 2, read: 1 });
    expect(sent.data[0]!.to).toHaveLength(2);
  });

  it("another user's message id answers as if it did not exist, and nothing changes", async () => {
    const signerMessage = (await inbox('signer')).data[0]!.id;
    for (const [method, url] of [['POST', '/api/messages/mark-as-read'], ['DELETE', '/api/messages/destroy']] as const) {
      const res = await call(h.app, method, url, { token: tokens.registrar, payload: { msg_ids: [signerMessage] } });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toMatch(/messages sent to you|发给自己/);
    }
    expect(await unread('signer')).toBe(1);
    // Marking all read touches only one's own.
    await call(h.app, 'POST', '/api/messages/mark-as-read', { token: tokens.registrar, payload: { all: true } });
    expect(await unread('signer')).toBe(1);
  });

  it('refuses recipients outside the working hospital, empty messages and oversized input, storing nothing', async () => {
    const before = await rows();
    // primary works in both hospitals; in the branch hospital the registrar (main hospital only) is out of reach.
    const branch = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow()).id;
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: tokens.primary, payload: { hospital_id: branch } })).statusCode).toBe(200);
    const outside = await send('primary', { user_ids: [ids.auditor, ids.registrar], title: 'x' });
    expect(outside.statusCode).toBe(422);
    expect(outside.json().message).toContain(String(ids.registrar));
    expect((await send('primary', { user_ids: [999999], title: 'x' })).statusCode).toBe(422);
    expect((await send('primary', { user_ids: [ids.auditor], title: '  ', content: '' })).statusCode).toBe(422);
    expect((await send('primary', { user_ids: [ids.auditor], title: 'x'.repeat(201) })).statusCode).toBe(422);
    expect((await send('primary', { user_ids: Array.from({ length: 201 }, (_, i) => i + 1), title: 'x' })).statusCode).toBe(422);
    expect((await send('primary', { user_ids: [ids.auditor], title: 'x', extra: 1 })).statusCode).toBe(422);
    expect(await rows()).toBe(before);
    const main = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow()).id;
    await call(h.app, 'POST', '/api/auth/switch_hospital', { token: tokens.primary, payload: { hospital_id: main } });
  });

  it('deleting is for oneself: the recipient drops it from the inbox, the sender from the sent list', async () => {
    const signerMessage = (await inbox('signer')).data[0]!.id;
    const dropped = await call(h.app, 'DELETE', '/api/messages/destroy', { token: tokens.signer, payload: { msg_ids: [signerMessage] } });
    expect(dropped.json().data).toEqual({ unread: 0 });
    expect((await inbox('signer')).total).toBe(0);
    const sent = await get<Sent>('primary', '/api/messages/send-by-me');
    expect(sent.data[0]!.recipients).toBe(2);
    expect((await call(h.app, 'DELETE', '/api/messages/destroy', { token: tokens.primary, payload: { msg_ids: [sent.data[0]!.id] } })).statusCode).toBe(200);
    expect((await get<Sent>('primary', '/api/messages/send-by-me')).total).toBe(0);
    expect((await inbox('auditor')).total).toBe(1);
    // A deleted message is gone for its deleter: deleting it again is refused like a stranger's.
    expect((await call(h.app, 'DELETE', '/api/messages/destroy', { token: tokens.signer, payload: { msg_ids: [signerMessage] } })).statusCode).toBe(404);
  });

  it('offers as recipients the active users of the working hospital, and roles only to notice publishers', async () => {
    const mine = await get<{ users: { id: number }[]; roles: unknown[] }>('primary', '/api/messages/recipients');
    expect(mine.users.map((u) => u.id)).toEqual(expect.arrayContaining([ids.auditor, ids.registrar]));
    expect(mine.roles).toEqual([]);
    expect((await get<{ roles: unknown[] }>('admin', '/api/messages/recipients')).roles.length).toBeGreaterThan(5);
  });

  it('notices go to the whole hospital or to chosen roles, and only notice publishers may send them', async () => {
    const denied = await call(h.app, 'POST', '/api/messages/notice', { token: tokens.registrar, payload: { title: 'Power cut' } });
    expect(denied.statusCode).toBe(403);
    const samplerRole = (await h.db.selectFrom('roles').select('id').where('identification', '=', 'sampler').executeTakeFirstOrThrow()).id;
    const toRole = await call(h.app, 'POST', '/api/messages/notice', { token: tokens.admin, payload: { title: 'Grossing room closed', content: 'Use room 2.', level: 2, role_ids: [samplerRole] } });
    expect(toRole.statusCode, toRole.body).toBe(200);
    expect(toRole.json().data.recipients).toBe(1);
    expect((await inbox('sampler')).data[0]).toMatchObject({ kind: 'notice', level: 2, title: 'Grossing room closed' });
    expect((await inbox('registrar')).total).toBe(0);
    const all = await call(h.app, 'POST', '/api/messages/notice', { token: tokens.admin, payload: { title: 'Fire drill at 10' } });
    const members = Number((await h.db.selectFrom('user_hospitals').select((eb) => eb.fn.countAll().as('n')).where('hospital_id', '=', 1).executeTakeFirstOrThrow()).n);
    expect(all.json().data.recipients).toBe(members);
    expect((await inbox('registrar')).data[0]!.title).toBe('Fire drill at 10');
  });

  it('a notice carries its type (enum notice_type), the inbox filters by it, and an unknown type is refused with nothing written', async () => {
    const samplerRole = (await h.db.selectFrom('roles').select('id').where('identification', '=', 'sampler').executeTakeFirstOrThrow()).id;
    const before = await rows();
    const bad = await call(h.app, 'POST', '/api/messages/notice', { token: tokens.admin, lang: 'en-US', payload: { title: 'Typed', type: 'gossip', role_ids: [samplerRole] } });
    expect(bad.statusCode).toBe(422);
    expect(bad.json().message).toBeTruthy();
    expect(await rows()).toBe(before);
    const typed = await call(h.app, 'POST', '/api/messages/notice', { token: tokens.admin, payload: { title: 'Stain QC failed on batch 7', level: 1, type: 'quality', role_ids: [samplerRole] } });
    expect(typed.statusCode, typed.body).toBe(200);
    expect((await send('primary', { user_ids: [ids.sampler], title: 'Untyped' })).statusCode).toBe(200);
    const all = await inbox('sampler');
    expect(all.data.slice(0, 2).map((m) => [m.title, (m as { type?: string }).type])).toEqual([['Untyped', 'general'], ['Stain QC failed on batch 7', 'quality']]);
    const quality = await inbox('sampler', '&type=quality');
    expect(quality.total).toBe(1);
    expect(quality.data.map((m) => m.title)).toEqual(['Stain QC failed on batch 7']);
    expect((await inbox('sampler', '&type=maintenance')).total).toBe(0);
    expect((await call(h.app, 'GET', '/api/messages/lists?type=gossip', { token: tokens.sampler })).statusCode).toBe(422);
    const mine = await get<{ data: { title: string; type: string }[] }>('admin', '/api/messages/send-by-me');
    expect(mine.data[0]).toMatchObject({ title: 'Stain QC failed on batch 7', type: 'quality' });
  });

  it("a system message is worded in the reader's language and leads to its case", async () => {
    await notify(h.db, 1, [ids.primary], 'case_assigned', { number: 'P2026-0042', patient: '张三', by: 'Allocator' }, '/case/42');
    const zh = (await get<Inbox>('primary', '/api/messages/lists', 'zh-CN')).data[0]!;
    const en = (await get<Inbox>('primary', '/api/messages/lists', 'en-US')).data[0]!;
    expect(zh).toMatchObject({ kind: 'system', type: 'workflow', title: '新分配病例：P2026-0042', link: '/case/42' });
    expect(zh.content).toContain('张三');
    expect(en).toMatchObject({ title: 'Case assigned to you: P2026-0042', content: 'Allocator assigned case P2026-0042 (张三) to you for first diagnosis.' });
  });

  it('change-clinical: the clinician answers a message that asks for it (received, then handled); only forward, only their own, all or nothing', async () => {
    const asked = await send('primary', { user_ids: [ids.clinician, ids.signer], title: 'Critical finding P2026-0042', content: 'Please call the lab.', level: 2, clinical: true });
    expect(asked.statusCode, asked.body).toBe(200);
    const plain = await send('primary', { user_ids: [ids.clinician], title: 'FYI' });
    const [plainMsg, askedMsg] = (await inbox('clinician')).data;
    expect(askedMsg).toMatchObject({ title: 'Critical finding P2026-0042', clinical: 1, clinical_status: null, read_at: null });
    expect(plainMsg).toMatchObject({ title: 'FYI', clinical: 0 });
    expect(plain.statusCode).toBe(200);
    const change = (who: string, payload: object, lang = 'en-US') => call(h.app, 'POST', '/api/messages/change-clinical', { token: tokens[who], lang, payload });
    const state = async () => h.db.selectFrom('messages').select(['id', 'user_id', 'clinical_status', 'clinical_note', 'read_at']).where('batch', '=', asked.json().data.batch).orderBy('id').execute();
    const before = await state();

    // Someone else's copy (another recipient's, or the sender's), a message that asks nothing, bad input: refused, nothing changes.
    const signerCopy = before.find((r) => r.user_id === ids.signer)!.id;
    expect((await change('clinician', { msg_ids: [askedMsg!.id, signerCopy], status: 'received' })).statusCode).toBe(404);
    expect((await change('primary', { msg_ids: [askedMsg!.id], status: 'received' })).statusCode).toBe(404);
    expect((await change('registrar', { msg_ids: [askedMsg!.id], status: 'received' })).statusCode).toBe(404);
    const notAsked = await change('clinician', { msg_ids: [askedMsg!.id, plainMsg!.id], status: 'received' }, 'zh-CN');
    expect(notAsked.statusCode).toBe(422);
    expect(notAsked.json().message).toBe('所选消息中有不需要临床回复的消息');
    expect((await change('clinician', { msg_ids: [askedMsg!.id], status: 'done' })).statusCode).toBe(422);
    expect((await change('clinician', { msg_ids: [askedMsg!.id], status: 'received', note: 'x'.repeat(1001) })).statusCode).toBe(422);
    expect((await change('clinician', { msg_ids: [], status: 'received' })).statusCode).toBe(422);
    expect(await state()).toEqual(before);

    // Received (read with it), then handled with a note; parallel answers move it once.
    const received = await Promise.all([1, 2, 3].map(() => change('clinician', { msg_ids: [askedMsg!.id], status: 'received' })));
    expect(received.map((r) => r.statusCode).sort()).toEqual([200, 422, 422]);
    let mine = (await inbox('clinician')).data.find((m) => m.id === askedMsg!.id) as unknown as Record<string, unknown>;
    expect(mine).toMatchObject({ clinical_status: 'received' });
    expect(mine.read_at).toBeTruthy();
    const handled = await change('clinician', { msg_ids: [askedMsg!.id], status: 'handled', note: ' Patient recalled, surgery booked. ' });
    expect(handled.statusCode, handled.body).toBe(200);
    mine = (await inbox('clinician')).data.find((m) => m.id === askedMsg!.id) as unknown as Record<string, unknown>;
    expect(mine).toMatchObject({ clinical_status: 'handled', clinical_note: 'Patient recalled, surgery booked.' });
    const back = await change('clinician', { msg_ids: [askedMsg!.id], status: 'received' }, 'en-US');
    expect(back.statusCode).toBe(422);
    expect(back.json().message).toMatch(/only moves forward/);

    // The sender sees how many answered, and how many handled it.
    const sentEntry = (await get<{ data: Record<string, unknown>[] }>('primary', '/api/messages/send-by-me')).data.find((e) => e.batch === asked.json().data.batch)!;
    expect(sentEntry).toMatchObject({ clinical: 1, recipients: 2, clinical_answered: 1, clinical_handled: 1 });
    const logged = await h.db.selectFrom('operation_logs').select('status_code').where('route', '=', '/api/messages/change-clinical').execute();
    expect(logged.length).toBeGreaterThanOrEqual(11);
  });
});
