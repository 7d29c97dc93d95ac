import { describe, expect, it } from 'vitest';
import { DEFAULT_SHARE_SECONDS, parseSharePermissions, shareState } from './sharePermissions';

describe('share permissions', () => {
  it('reads only true flags, anything else off', () => {
    expect(parseSharePermissions('{"diagnosis":true,"annotation":"yes","extra":true}')).toEqual({ diagnosis: true, remark: false, labels: false, annotation: false, need_login: false });
    expect(parseSharePermissions('not json')).toEqual({ diagnosis: false, remark: false, labels: false, annotation: false, need_login: false });
  });
  it('defaults to three hours (spec §9)', () => expect(DEFAULT_SHARE_SECONDS).toBe(10800));
  it('is revoked, expired or active', () => {
    const now = '2026-01-01T00:00:00.000Z';
    expect(shareState({ expires_at: '2026-01-01T00:00:01.000Z', revoked_at: null }, now)).toBe('active');
    expect(shareState({ expires_at: now, revoked_at: null }, now)).toBe('expired');
    expect(shareState({ expires_at: '2027-01-01T00:00:00.000Z', revoked_at: now }, now)).toBe('revoked');
  });
});
