import { describe, expect, it } from 'vitest';
import { appPath } from './appPath';

describe('appPath: where an outside sign-in may send the browser', () => {
  it('keeps paths of this app, with their query', () => {
    expect(appPath('/manage')).toBe('/manage');
    expect(appPath('/case/detail?id=3&tab=a')).toBe('/case/detail?id=3&tab=a');
  });

  it('refuses everything that could leave the app', () => {
    for (const bad of ['//evil.example/x', '/\\evil.example', 'https://evil.example/', 'javascript:alert(1)', 'manage', '', '/a\nb', `/${'x'.repeat(600)}`, null, 42]) {
      expect(appPath(bad), String(bad)).toBe('/manage');
    }
  });

  it('uses the given fallback', () => {
    expect(appPath('//x', '/')).toBe('/');
  });
});
