import { describe, expect, it } from 'vitest';
import { DEFAULT_SHARE_SECONDS, flagsHeld, flagsNotHeld, NO_SHARE_PERMISSIONS, parseSharePermissions, shareState } from './sharePermissions';

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
  it('names the flags whose permission is not held (issue 27: a link shows no more than its creator may see)', () => {
    const all = { diagnosis: true, remark: true, labels: true, annotation: true, need_login: true };
    const technician = (code: string) => ['case_view', 'slide_view'].includes(code);
    expect(flagsNotHeld(all, technician)).toEqual(['annotation']);
    const clinician = (code: string) => ['slide_view', 'slide_annotation_view'].includes(code);
    expect(flagsNotHeld(all, clinician)).toEqual(['diagnosis', 'labels']);
    expect(flagsNotHeld(NO_SHARE_PERMISSIONS, () => false)).toEqual([]);
  });
  it('shows a flag only while every holder holds its permission; need_login stays as stored', () => {
    const link = { diagnosis: true, remark: false, labels: false, annotation: true, need_login: true };
    const creator = (code: string) => ['case_view', 'slide_view', 'slide_annotation_view'].includes(code);
    const viewer = (code: string) => ['case_view', 'slide_view'].includes(code);
    expect(flagsHeld(link, creator)).toEqual(link);
    expect(flagsHeld(link, creator, viewer)).toEqual({ ...link, annotation: false });
    expect(flagsHeld(link, () => false)).toEqual({ ...NO_SHARE_PERMISSIONS, need_login: true });
  });
});
