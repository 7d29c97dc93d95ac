import { describe, expect, it } from 'vitest';
import { outsideUrlProblem } from './config.js';

describe('outsideUrlProblem: where a provider may be reached', () => {
  it('takes https anywhere and http on this machine only', () => {
    expect(outsideUrlProblem('https://idp.hospital.example/realms/path')).toBeNull();
    expect(outsideUrlProblem('http://127.0.0.1:4000')).toBeNull();
    expect(outsideUrlProblem('http://localhost:4000/x')).toBeNull();
    expect(outsideUrlProblem('http://idp.hospital.example')).toBe('sso.url_insecure');
    expect(outsideUrlProblem('ftp://127.0.0.1')).toBe('sso.url_insecure');
  });

  it('refuses what is no address, or carries credentials or a fragment', () => {
    expect(outsideUrlProblem('not a url')).toBe('sso.url_invalid');
    expect(outsideUrlProblem('https://user:pw@idp.example')).toBe('sso.url_invalid');
    expect(outsideUrlProblem('https://idp.example/#x')).toBe('sso.url_invalid');
  });
});
