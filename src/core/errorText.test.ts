import { describe, expect, it } from 'vitest';
import { errorText, errorTextFromBlobText } from './errorText.js';

describe('error text extraction (spec §8)', () => {
  it('no errors object: shows data.message', () => {
    expect(errorText({ message: '用户名或密码错误' })).toBe('用户名或密码错误');
  });
  it('no errors object and message is an array: shows its first item', () => {
    expect(errorText({ message: ['first', 'second'] })).toBe('first');
  });
  it("errors as a list: shows the first item's code", () => {
    expect(errorText({ message: 'm', errors: [{ code: 'E1001' }, { code: 'E2' }] })).toBe('E1001');
  });
  it('errors keyed by field: first message of the first field', () => {
    expect(errorText({ message: 'invalid', errors: { username: ['username is required', 'x'], password: ['p'] } })).toBe('username is required');
  });
  it('blob error responses: parses the JSON message', () => {
    expect(errorTextFromBlobText('{"message":"file gone"}')).toBe('file gone');
    expect(errorTextFromBlobText('not json')).toBeUndefined();
  });
  it('nothing usable gives undefined so the caller shows its default', () => {
    expect(errorText(undefined)).toBeUndefined();
    expect(errorText({})).toBeUndefined();
  });
});
