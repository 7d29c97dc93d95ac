import { describe, expect, it } from 'vitest';
import { imageCookieHeaders, imageCookieToken } from './image-cookie.js';

describe('image cookie', () => {
  it('reads our cookie out of a Cookie header, and nothing that only looks like it', () => {
    expect(imageCookieToken('dsms_image=abc')).toBe('abc');
    expect(imageCookieToken('a=1; dsms_image=abc-_9; b=2')).toBe('abc-_9');
    expect(imageCookieToken('a=1;dsms_image=abc')).toBe('abc');
    expect(imageCookieToken('xdsms_image=evil; dsms_image=good')).toBe('good');
    expect(imageCookieToken('dsms_image=near; dsms_image=far')).toBe('near');
    for (const header of [undefined, '', 'xdsms_image=evil', 'dsms_image=', 'dsms_image=; a=1', 'other=dsms_image=x']) expect(imageCookieToken(header), String(header)).toBeUndefined();
  });

  it('sets one HttpOnly, SameSite=Strict cookie per image path, Secure over https, and clears them', () => {
    expect(imageCookieHeaders('t', false)).toEqual([
      'dsms_image=t; Path=/api/tiles; HttpOnly; SameSite=Strict',
      'dsms_image=t; Path=/api/iiif; HttpOnly; SameSite=Strict',
      'dsms_image=t; Path=/api/data/kfb/thumb; HttpOnly; SameSite=Strict',
    ]);
    expect(imageCookieHeaders('t', true)[0]).toBe('dsms_image=t; Path=/api/tiles; HttpOnly; SameSite=Strict; Secure');
    expect(imageCookieHeaders(null, false)[1]).toBe('dsms_image=; Path=/api/iiif; HttpOnly; SameSite=Strict; Max-Age=0');
  });
});
