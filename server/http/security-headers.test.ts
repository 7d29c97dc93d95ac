import { describe, expect, it } from 'vitest';
import { API_HEADER_PAIRS, API_POLICY, sitePolicy } from './security-headers.js';

describe('security headers', () => {
  it('the site policy allows no inline or foreign script, and frames only this site and the configured origins', () => {
    expect(sitePolicy()).toContain("script-src 'self' 'unsafe-eval'");
    expect(sitePolicy()).not.toMatch(/script-src[^;]*unsafe-inline/);
    expect(sitePolicy()).toContain("frame-src 'self';");
    expect(sitePolicy(['https://pacs.example.org'])).toContain("frame-src 'self' https://pacs.example.org;");
    expect(sitePolicy()).toContain("frame-ancestors 'self'");
    expect(sitePolicy()).toContain("object-src 'none'");
  });

  it('the fast lane sends the same headers as the API hook', () => {
    const headers = Object.fromEntries(API_HEADER_PAIRS.flatMap((v, i, a) => (i % 2 ? [] : [[v, a[i + 1]]])));
    expect(headers).toEqual({
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'x-frame-options': 'SAMEORIGIN',
      'content-security-policy': API_POLICY,
    });
  });
});
