import { describe, expect, it } from 'vitest';
import { withToken } from './tokenUrl.js';

describe('image addresses with the session token', () => {
  it('adds the token to our own API images only', () => {
    expect(withToken('/api/data/kfb/thumb/5', 'a b')).toBe('/api/data/kfb/thumb/5?token=a%20b');
    expect(withToken('/api/x?size=2', 't')).toBe('/api/x?size=2&token=t');
    expect(withToken('https://elsewhere.example/api/x.png', 't')).toBe('https://elsewhere.example/api/x.png');
    expect(withToken('/favicon.ico', 't')).toBe('/favicon.ico');
    expect(withToken('/api/data/kfb/thumb/5', null)).toBe('/api/data/kfb/thumb/5');
  });
});
