import { describe, expect, it } from 'vitest';
import { redactTokens } from './redact.js';

describe('token redaction for logs', () => {
  it('replaces token values in query strings, whatever the parameter is called', () => {
    expect(redactTokens('/api/tiles/5_files/1/0_0.jpeg?token=abc-DEF_1')).toBe('/api/tiles/5_files/1/0_0.jpeg?token=[redacted]');
    expect(redactTokens('/api/x?a=1&TOKEN=abc&b=2')).toBe('/api/x?a=1&TOKEN=[redacted]&b=2');
    expect(redactTokens('/inner/view?access_token=x&sso_token=y#z')).toBe('/inner/view?access_token=[redacted]&sso_token=[redacted]#z');
    expect(redactTokens('GET /api/x?token=a%20b failed')).toBe('GET /api/x?token=[redacted] failed');
  });

  it('leaves everything else alone', () => {
    for (const text of ['/api/data/kfb/thumb/5', '/api/x?tokens=1', '/api/x?page=token=', 'token=abc']) expect(redactTokens(text)).toBe(text);
  });
});
