import { parse } from 'qs';
import { describe, expect, it } from 'vitest';
import { serializeParams } from './queryString.js';

describe('GET parameters (spec §7: arrays serialised with indices)', () => {
  it('writes arrays with indices and nested objects with brackets', () => {
    expect(decodeURIComponent(serializeParams({ ids: [1, 2], range: { from: 'a', to: 'b' }, q: 'x y' }))).toBe('ids[0]=1&ids[1]=2&range[from]=a&range[to]=b&q=x y');
  });
  it('drops null and undefined, keeps 0, false and empty strings', () => {
    expect(serializeParams({ a: null, b: undefined, c: 0, d: false, e: '' })).toBe('c=0&d=false&e=');
  });
  it('round-trips through the server parser (qs)', () => {
    const params = { page: 2, filter: [{ column: 'name', operator: 'like', value: '张' }], sort_by: '{"id":"desc"}' };
    expect(parse(serializeParams(params))).toEqual({ page: '2', filter: [{ column: 'name', operator: 'like', value: '张' }], sort_by: '{"id":"desc"}' });
  });
});
