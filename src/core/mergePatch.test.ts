import { describe, expect, it } from 'vitest';
import { applyMergePatch } from './mergePatch.js';
import { checkPageSchema } from './pageSchemaCheck.js';
import systemUser from '../../schemas/pages/SystemUser.json';

describe('hospital overrides (JSON merge patch over the base schema)', () => {
  it('replaces, adds and removes (null) members without touching the base', () => {
    const base = { a: 1, b: { c: 2, d: 3 }, list: [1, 2] };
    expect(applyMergePatch(base, { a: 5, b: { d: null, e: 4 }, list: [3] })).toEqual({ a: 5, b: { c: 2, e: 4 }, list: [3] });
    expect(base).toEqual({ a: 1, b: { c: 2, d: 3 }, list: [1, 2] });
  });
  it('a retitled page still passes the meta-schema; a patch that breaks it does not', () => {
    expect(checkPageSchema(applyMergePatch(systemUser, { title: { 'zh-CN': '账号管理', 'en-US': 'Accounts' } }))).toEqual([]);
    expect(checkPageSchema(applyMergePatch(systemUser, { list: { selectable: 'yes' } }))).toEqual([{ path: '/list/selectable', message: 'must be boolean' }]);
  });
});
