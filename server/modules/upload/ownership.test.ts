import { describe, expect, it } from 'vitest';
import { mayBindUpload, ownerOfUpload, ownerPrefix } from './ownership.js';

const hash = 'a'.repeat(32);

describe('upload ownership', () => {
  it('reads the owner back from an upload id, and nothing from a folder of no owned upload', () => {
    expect(ownerOfUpload(`${ownerPrefix({ userId: 12, hospitalId: 3 })}${hash}`)).toEqual({ userId: 12, hospitalId: 3 });
    for (const id of [hash, 'u4', `h3u12-${hash}x`, `h3u12-${hash}/..`, `h-1u2-${hash}`]) expect(ownerOfUpload(id), id).toBeNull();
  });

  it('lets a user bind their own upload in its hospital; upload_bind_any any of that hospital and unowned files', () => {
    const id = `h3u12-${hash}`;
    const plain = { id: 12, identification: ['technician'], permissions: ['slide_upload'] };
    const other = { ...plain, id: 13 };
    const any = { ...other, permissions: ['slide_upload', 'upload_bind_any'] };
    const admin = { id: 1, identification: ['admin'], permissions: [] };
    expect(mayBindUpload(plain, 3, id)).toBe(true);
    expect(mayBindUpload(plain, 4, id)).toBe(false);
    expect(mayBindUpload(other, 3, id)).toBe(false);
    expect(mayBindUpload(any, 3, id)).toBe(true);
    expect(mayBindUpload(any, 4, id)).toBe(false);
    expect(mayBindUpload(admin, 3, id)).toBe(true);
    expect(mayBindUpload(plain, 3, 'legacy')).toBe(false);
    expect(mayBindUpload(any, 3, 'legacy')).toBe(true);
  });
});
