import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { notify } from '../../server/modules/messages/notify.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';

interface Inbox { data: { id: number; kind: string; level: number; title: string; content: string; read_at: string | null; link: string | null; fromUser?: { realname: string } | null }[]; total: number }
interface Sent { data: { id: number; batch: string; title: string; recipients: number; read: number; to: string[] }[]; total: number }

/** Issue 17, spec §7 `messages/*`: messages reach only their recipients; reading, counting and deleting are each user's own. */
describe.each(databases)('messages [%s]', (kind) => {
  let h: Harness;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};
  beforeAll(async () => {
    h = await startApp(kind);
    for (const name of ['admin', 'primary', 'auditor', 'signer', 'registrar', 'sampler']) {
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

  it("a system message is worded in the reader's language and leads to its case", async () => {
    await notify(h.db, 1, [ids.primary], 'case_assigned', { number: 'P2026-0042', patient: '张三', by: 'Allocator' }, '/case/42');
    const zh = (await get<Inbox>('primary', '/api/messages/lists', 'zh-CN')).data[0]!;
    const en = (await get<Inbox>('primary', '/api/messages/lists', 'en-US')).data[0]!;
    expect(zh).toMatchObject({ kind: 'system', title: '新分配病例：P2026-0042', link: '/case/42' });
    expect(zh.content).toContain('张三');
    expect(en).toMatchObject({ title: 'Case assigned to you: P2026-0042', content: 'Allocator assigned case P2026-0042 (张三) to you for first diagnosis.' });
  });
});
