import { describe, expect, it } from 'vitest';
import { openWhileScreenLocked } from './screen-lock.js';
import type { SessionUser } from './types.js';

const session: SessionUser = {
  id: 7, name: 'u', realname: 'U', identification: [], permissions: [], hospitalIds: [1], hospitalId: 1, tokenHash: 'h', screenLocked: true,
};
const open = (method: string, url: string | undefined, params: object = {}, s: SessionUser = session) => openWhileScreenLocked({ method, url, params }, s);

describe('openWhileScreenLocked', () => {
  it('lets an unlocked session through everywhere', () => {
    expect(open('GET', '/api/cases/lists', {}, { ...session, screenLocked: false })).toBe(true);
  });

  it('lets a locked session unlock, log out and draw the lock screen, and nothing else', () => {
    for (const [method, url] of [['POST', '/api/auth/lock_screen_verify'], ['POST', '/api/auth/logout'], ['GET', '/api/auth/challenge'],
      ['GET', '/api/common/setting'], ['GET', '/api/system_management/users/menu']]) {
      expect(open(method, url), `${method} ${url}`).toBe(true);
    }
    for (const [method, url] of [['GET', '/api/cases/lists'], ['GET', '/api/tiles/:descriptor'], ['POST', '/api/auth/switch_hospital'],
      ['HEAD', '/api/system_management/users/menu'], ['POST', '/api/auth/challenge']]) {
      expect(open(method, url), `${method} ${url}`).toBe(false);
    }
  });

  it('reads only its own user record while locked', () => {
    expect(open('GET', '/api/system_management/users/detail/:id', { id: '7' })).toBe(true);
    expect(open('GET', '/api/system_management/users/detail/:id', { id: 8 })).toBe(false);
  });

  it('leaves the site’s files and unmatched addresses alone', () => {
    expect(open('GET', '/assets/*')).toBe(true);
    expect(open('GET', undefined)).toBe(true);
  });
});
