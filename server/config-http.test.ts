import { describe, expect, it } from 'vitest';
import { parseCorsOrigins, parseFrameSources, parsePublicUrl, parseTrustProxy } from './config-http.js';

describe('TRUST_PROXY', () => {
  it('is off unless set, and takes what Fastify takes', () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy('')).toBe(false);
    expect(parseTrustProxy('false')).toBe(false);
    expect(parseTrustProxy('true')).toBe(true);
    expect(parseTrustProxy('127.0.0.1, 10.0.0.0/8,::1,fd00::/8,loopback')).toEqual(['127.0.0.1', '10.0.0.0/8', '::1', 'fd00::/8', 'loopback']);
  });

  it('refuses anything else at start-up rather than trusting it', () => {
    for (const bad of ['2', 'yes', 'proxy.example', '10.0.0.0/33', '10.0.0.1/8/2', '1.2.3']) expect(() => parseTrustProxy(bad), bad).toThrow(/TRUST_PROXY/);
  });
});

describe('PUBLIC_URL', () => {
  it('defaults to localhost on the port and drops a trailing slash', () => {
    expect(parsePublicUrl(undefined, 8001)).toBe('http://localhost:8001');
    expect(parsePublicUrl('https://dsms.hospital.example/', 8001)).toBe('https://dsms.hospital.example');
    expect(parsePublicUrl('https://intranet.example/dsms/', 8001)).toBe('https://intranet.example/dsms');
  });

  it('refuses what is not a plain http(s) address', () => {
    for (const bad of ['dsms.example', 'ftp://x.example', 'https://x.example/?a=1', 'https://u:p@x.example']) expect(() => parsePublicUrl(bad, 8001), bad).toThrow(/PUBLIC_URL/);
  });
});

describe('CSP_FRAME_SRC', () => {
  it('takes origins separated by commas or spaces', () => {
    expect(parseFrameSources(undefined)).toEqual([]);
    expect(parseFrameSources('https://pacs.example.org, http://his.local:8080/')).toEqual(['https://pacs.example.org', 'http://his.local:8080']);
  });

  it('refuses paths, wildcards and other schemes', () => {
    for (const bad of ['https://pacs.example.org/viewer', '*', 'javascript:alert(1)', 'data:', "'unsafe-inline'"]) expect(() => parseFrameSources(bad), bad).toThrow(/CSP_FRAME_SRC/);
  });
});

describe('IIIF_CORS_ORIGINS', () => {
  it('is any origin by default, none when asked, or a list of origins', () => {
    expect(parseCorsOrigins(undefined)).toBe('*');
    expect(parseCorsOrigins(' * ')).toBe('*');
    expect(parseCorsOrigins('none')).toEqual([]);
    expect(parseCorsOrigins('https://viewer.example.org http://127.0.0.1:5173/')).toEqual(['https://viewer.example.org', 'http://127.0.0.1:5173']);
  });

  it('refuses paths, wildcards among origins, null and other schemes', () => {
    for (const bad of ['https://viewer.example.org/mirador', '*, https://viewer.example.org', 'null', 'file:///tmp', '*.example.org']) {
      expect(() => parseCorsOrigins(bad), bad).toThrow(/IIIF_CORS_ORIGINS/);
    }
  });
});
