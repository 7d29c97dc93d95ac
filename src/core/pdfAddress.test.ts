import { describe, expect, it } from 'vitest';
import { pdfAddress } from './pdfAddress';

const origin = 'https://dsms.example.org';

describe('pdfAddress (the /pdf page opens only this site’s API)', () => {
  it('accepts a path under /api/, relative or absolute on this origin', () => {
    expect(pdfAddress('/api/diagnosis/reports/12/pdf', origin)).toBe('/api/diagnosis/reports/12/pdf');
    expect(pdfAddress(`${origin}/api/attachments/3?x=1`, origin)).toBe('/api/attachments/3?x=1');
  });

  it('refuses other sites, other paths and tricks', () => {
    for (const bad of [
      null, undefined, '', 'https://evil.example/api/x.pdf', '//evil.example/api/x.pdf', '/\\evil.example/api/x',
      'javascript:alert(1)', 'data:application/pdf;base64,AAAA', '/index.html', '/api/../login', '/api/%2e%2e/login',
      '/api/x%2Fy', ' /api/x', `/api/${'a'.repeat(3000)}`,
    ]) {
      expect(pdfAddress(bad, origin), String(bad)).toBeNull();
    }
  });
});
