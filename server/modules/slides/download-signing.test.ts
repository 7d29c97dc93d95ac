import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DOWNLOAD_LINK_SECONDS, signDownload, verifyDownload } from './download-signing.js';

/** Spec §6 slide_download: a download link is bound to one slide and one user, and expires. */
describe('slide download links', () => {
  const key = randomBytes(32);
  const now = 1_800_000_000;
  const link = signDownload(key, 7, 3, now);

  it('verifies for the same slide and user until it expires', () => {
    expect(verifyDownload(key, 7, 3, link.expires, link.sig, now)).toBe(true);
    expect(verifyDownload(key, 7, 3, link.expires, link.sig, now + DOWNLOAD_LINK_SECONDS)).toBe(true);
    expect(verifyDownload(key, 7, 3, link.expires, link.sig, now + DOWNLOAD_LINK_SECONDS + 1)).toBe(false);
  });

  it('refuses another slide, another user, a stretched expiry, another key or a mangled signature', () => {
    expect(verifyDownload(key, 8, 3, link.expires, link.sig, now)).toBe(false);
    expect(verifyDownload(key, 7, 4, link.expires, link.sig, now)).toBe(false);
    expect(verifyDownload(key, 7, 3, link.expires + 3600, link.sig, now)).toBe(false);
    expect(verifyDownload(randomBytes(32), 7, 3, link.expires, link.sig, now)).toBe(false);
    expect(verifyDownload(key, 7, 3, link.expires, link.sig.slice(1), now)).toBe(false);
    expect(verifyDownload(key, 7, 3, Number.NaN, link.sig, now)).toBe(false);
  });
});
