import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { KEY_SIGNS_MS, keyCovers, keySigns } from '../../http/signing-keys.js';
import { DOWNLOAD_LINK_SECONDS, signDownload, verifyDownload } from './download-signing.js';

/** Spec §6 slide_download: a download link is bound to one slide, one user and one key, and expires. */
describe('slide download links', () => {
  const now = 1_800_000_000;
  const key = { keyId: 'k1', secret: randomBytes(32), createdMs: now * 1000 - 3600_000 };
  const link = signDownload(key, 7, 3, now);

  it('verifies for the same slide and user until it expires', () => {
    expect(link.kid).toBe('k1');
    expect(verifyDownload(key, 7, link, now)).toBe(true);
    expect(verifyDownload(key, 7, link, now + DOWNLOAD_LINK_SECONDS)).toBe(true);
    expect(verifyDownload(key, 7, link, now + DOWNLOAD_LINK_SECONDS + 1)).toBe(false);
  });

  it('refuses another slide, another user, a stretched expiry, another key or a mangled signature', () => {
    expect(verifyDownload(key, 8, link, now)).toBe(false);
    expect(verifyDownload(key, 7, { ...link, user: 4 }, now)).toBe(false);
    expect(verifyDownload(key, 7, { ...link, expires: link.expires + 3600 }, now)).toBe(false);
    expect(verifyDownload({ ...key, secret: randomBytes(32) }, 7, link, now)).toBe(false);
    expect(verifyDownload({ ...key, keyId: 'k2' }, 7, link, now)).toBe(false);
    expect(verifyDownload(key, 7, { ...link, kid: 'k2' }, now)).toBe(false);
    expect(verifyDownload(key, 7, { ...link, sig: link.sig.slice(1) }, now)).toBe(false);
    expect(verifyDownload(key, 7, { ...link, expires: Number.NaN }, now)).toBe(false);
  });

  it('refuses a correctly signed link whose expiry lies further ahead than a link lives (a leaked key mints no long links)', () => {
    const forged = signDownload(key, 7, 3, now + 10 * 365 * 86400);
    expect(verifyDownload(key, 7, forged, now)).toBe(false);
    expect(verifyDownload(key, 7, signDownload(key, 7, 3, now + 1), now)).toBe(false);
  });

  it('lets a retired key verify the links it signed last, and nothing signed after it retired', () => {
    const created = now * 1000 - KEY_SIGNS_MS + 1000;
    const old = { ...key, createdMs: created };
    expect(keySigns(created, now * 1000)).toBe(true);
    const last = signDownload(old, 7, 3, now);
    expect(keySigns(created, now * 1000 + 1000)).toBe(false);
    expect(verifyDownload(old, 7, last, now + DOWNLOAD_LINK_SECONDS)).toBe(true);
    // Signed with the old secret after it retired: an expiry it could never have issued.
    const late = signDownload(old, 7, 3, now + 60);
    expect(keyCovers(created, late.expires * 1000, DOWNLOAD_LINK_SECONDS * 1000)).toBe(false);
    expect(verifyDownload(old, 7, late, now + 60)).toBe(false);
  });
});
