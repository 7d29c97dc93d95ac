import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app.js';
import type { Db } from '../../server/db/connect.js';
import systemUser from '../../schemas/pages/SystemUser.json';
import { RULE_LIMITS } from '../../src/core/ruleBudget.js';
import { call, databases, seededDatabase, tokenFor } from './harness.js';

const range = (n: number) => Array.from({ length: n }, (_, i) => i);
/** A list the rule builds by doubling: its length does not show in the rule, only when it runs. */
const built = (steps: number) => ({ reduce: [range(steps), { merge: [{ var: 'accumulator' }, { var: 'accumulator' }] }, [0]] });

/**
 * A hospital's json-logic rule cannot stall the worker every hospital shares (issue 27 item 5): a rule whose cost
 * shows (a nested map over literal lists) is refused when saved, translated and by path, and nothing is saved; one
 * whose cost shows only when it runs (a nested map over lists it builds) stops at the evaluation bound with a
 * translated 422 for its own hospital (and a line in the server's log), while another hospital's requests answer
 * normally.
 */
describe.each(databases)('a hospital rule’s cost is bounded [%s]', (kind) => {
  const h = {} as { app: FastifyInstance; db: Db; drop(): Promise<void> };
  let admin: string;
  let registrar: string;
  let branchUser: string;
  const logged: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const { db, drop } = await seededDatabase(kind);
    Object.assign(h, { db, drop });
    // The app as main.ts builds it, its warnings and errors captured.
    h.app = await buildApp({
      db, config: { tokenTtlSeconds: 3600, distDir: '/nonexistent', logLevel: 'warn' },
      logStream: { write: (line: string) => { logged.push(JSON.parse(line) as Record<string, unknown>); } },
    });
    await h.app.ready();
    [admin, registrar, branchUser] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar'), tokenFor(h.app, 'primary')]);
    // admin and registrar work in the general hospital (H001); this session of primary works in the branch (H002).
    const branch = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H002').executeTakeFirstOrThrow()).id;
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: branchUser, payload: { hospital_id: branch } })).statusCode).toBe(200);
  });
  afterAll(async () => {
    await h.app.close();
    await h.drop();
  });

  /** Replaces case-status.status (a merge patch: the base's `if` removed, the new operation added). */
  const saveStatusRule = (status: object, lang = 'en-US') =>
    call(h.app, 'PUT', '/api/rules/case-status', { token: admin, lang, payload: { override: { rules: { status: { if: null, ...status } } } } });
  const version = async () => (await call(h.app, 'GET', '/api/rules/case-status', { token: admin })).json().data.version as number;

  it('refuses at save a nested map over literal lists, translated and by path, and saves nothing', async () => {
    const freezing = { map: [range(300), { map: [range(300), { '+': [{ var: '' }, 1] }] }] };
    const en = await saveStatusRule(freezing);
    expect(en.statusCode, en.body).toBe(422);
    expect(en.json().message).toBe(`The rule set is not valid: /rules/status needs more than the ${RULE_LIMITS.operations} operations an evaluation may use`);
    expect(Object.keys(en.json().errors)).toEqual(['/rules/status']);
    const zh = await saveStatusRule(freezing, 'zh-CN');
    expect(zh.statusCode).toBe(422);
    expect(zh.json().message).toMatch(/^规则集不符合规范：\/rules\/status /);
    expect(await version()).toBe(0);
  });

  it('refuses the same in a page schema: an action shown by a nested map over literal lists', async () => {
    const freezing = { some: [range(300), { some: [range(300), { '==': [{ var: '' }, -1] }] }] };
    const rowActions = systemUser.list.rowActions.map((a) => (a.key === 'disable' ? { ...a, visibleIf: freezing } : a));
    const res = await call(h.app, 'PUT', '/api/schemas/SystemUser', { token: admin, lang: 'en-US', payload: { override: { list: { rowActions } } } });
    expect(res.statusCode, res.body).toBe(422);
    expect(res.json().message).toBe(`The page schema is not valid: /list/rowActions/1/visibleIf needs more than the ${RULE_LIMITS.operations} operations an evaluation may use`);
    expect((await call(h.app, 'GET', '/api/schemas/SystemUser', { token: admin })).json().data.version).toBe(0);
  });

  it('stops at run a rule whose cost shows only then, with a translated 422; another hospital answers normally', async () => {
    const freezing = { map: [built(11), { map: [built(11), { var: '' }] }] };
    const before = await version();
    const saved = await saveStatusRule(freezing);
    expect(saved.statusCode, saved.body).toBe(200);
    expect(await version()).toBe(before + 1);

    const stopped = await call(h.app, 'GET', '/api/pathology/status-counts', { token: registrar, lang: 'en-US' });
    expect(stopped.statusCode, stopped.body).toBe(422);
    expect(stopped.json().message).toBe(`A rule configured for this hospital needed more work than allowed (more than ${RULE_LIMITS.operations} operations) and was stopped; an administrator can check or roll back the hospital’s rule sets and configuration`);
    const zh = await call(h.app, 'GET', '/api/pathology/status-counts', { token: registrar, lang: 'zh-CN' });
    expect(zh.statusCode).toBe(422);
    expect(zh.json().message).toBe(`本院配置的一条规则计算量超出上限（运算步数超过 ${RULE_LIMITS.operations}），已中止；请管理员检查或回滚本院的规则集与配置`);
    expect(logged.filter((l) => l.msg === 'rule evaluation stopped: too costly')).toEqual([
      expect.objectContaining({ level: 50, limit: 'operations', max: RULE_LIMITS.operations, url: '/api/pathology/status-counts' }),
      expect.objectContaining({ level: 50, limit: 'operations', url: '/api/pathology/status-counts' }),
    ]);
    // Every request that shows a case status runs into it: a list by status too.
    expect((await call(h.app, 'GET', '/api/pathology/by-status?status=to_register', { token: registrar })).statusCode).toBe(422);

    // The branch's rules are its own: its requests answer, with its cases counted by the base rule.
    const branch = await call(h.app, 'GET', '/api/pathology/status-counts', { token: branchUser, lang: 'en-US' });
    expect(branch.statusCode, branch.body).toBe(200);
    expect(branch.json().data.total).toBeGreaterThan(0);
    expect(Object.values(branch.json().data.counts as Record<string, number>).reduce((a, b) => a + b, 0)).toBe(branch.json().data.total);
    expect((await call(h.app, 'GET', '/api/pathology/by-status?status=to_register', { token: branchUser })).statusCode).toBe(200);

    // Rolled back, the general hospital's counts answer again.
    expect((await call(h.app, 'POST', '/api/rules/case-status/rollback', { token: admin, payload: { version: 0 } })).statusCode).toBe(200);
    expect((await call(h.app, 'GET', '/api/pathology/status-counts', { token: registrar })).statusCode).toBe(200);
  });
});
