import { describe, expect, it } from 'vitest';
import { decideRoute, rewriteInnerView, type GuardInput } from './routeGuard.js';

const base: GuardInput = { path: '/manage/slide/library', query: {}, hasToken: false, userLoaded: false, locked: false, hasSsoCookie: false };

describe('route guard (spec §4)', () => {
  it('no token and no login code: static-list paths are allowed', () => {
    expect(decideRoute({ ...base, path: '/login' })).toEqual({ action: 'allow' });
    expect(decideRoute({ ...base, path: '/404' })).toEqual({ action: 'allow' });
  });

  it('no token: other paths go to /login with a redirect parameter', () => {
    expect(decideRoute({ ...base, query: { page: '2' } })).toEqual({ action: 'redirect', to: `/login?redirect=${encodeURIComponent('/manage/slide/library?page=2')}` });
  });

  it('token and loaded user: /login or / go to /manage', () => {
    const ready = { ...base, hasToken: true, userLoaded: true };
    expect(decideRoute({ ...ready, path: '/login' })).toEqual({ action: 'redirect', to: '/manage' });
    expect(decideRoute({ ...ready, path: '/' })).toEqual({ action: 'redirect', to: '/manage' });
    expect(decideRoute({ ...ready, path: '/login', query: { redirect: '/manage/log/login' } })).toEqual({ action: 'redirect', to: '/manage/log/login' });
    expect(decideRoute(ready)).toEqual({ action: 'allow' });
  });

  it('if locked, navigation is refused', () => {
    const locked = { ...base, hasToken: true, userLoaded: true, locked: true, lockedPath: '/manage/dashboard' };
    expect(decideRoute(locked)).toEqual({ action: 'refuse', stayAt: '/manage/dashboard' });
    expect(decideRoute({ ...locked, path: '/manage/dashboard' })).toEqual({ action: 'allow' });
  });

  it('token but no user: load user info and menus, then retry', () => {
    expect(decideRoute({ ...base, hasToken: true })).toEqual({ action: 'loadUser' });
  });

  it('a code query parameter triggers external-login-code login; a stoken is handled too', () => {
    expect(decideRoute({ ...base, path: '/login', query: { code: 'abc' } })).toMatchObject({ action: 'externalLogin', kind: 'code', value: 'abc' });
    expect(decideRoute({ ...base, query: { stoken: 's1' } })).toMatchObject({ action: 'externalLogin', kind: 'stoken', value: 's1' });
  });

  it('otherwise cookie DD_TOKEN triggers single-sign-on login', () => {
    expect(decideRoute({ ...base, hasSsoCookie: true })).toMatchObject({ action: 'externalLogin', kind: 'sso' });
  });
});

describe('/inner/view rewrite (spec §4)', () => {
  it('goes to /slide/view keeping token, uuid, file_index, sync, lis_slide_id and slide_id as they are', () => {
    const to = decideRoute({ ...base, path: '/inner/view', query: { token: 'a%2Fb', uuid: 'u', file_index: '1', sync: '0', lis_slide_id: '9', slide_id: '3' } });
    expect(to).toEqual({ action: 'redirect', to: '/slide/view?token=a%252Fb&uuid=u&file_index=1&sync=0&lis_slide_id=9&slide_id=3' });
  });

  it('transforms (URI-decodes) the other query values', () => {
    const url = new URL(`http://x${rewriteInnerView({ path: 'a%2Fb%20c.svs' })}`);
    expect(url.searchParams.get('path')).toBe('a/b c.svs');
  });
});
