import { describe, expect, it } from 'vitest';
import { isIpHost, mayUseSecurityKey, passwordlessRoles, securityKeyName } from './securityKeys';

describe('security key rules', () => {
  it('reads the allowed roles from the stored setting, as text or as an object, and nothing else', () => {
    expect(passwordlessRoles({ role_ids: [3, 5, 3] })).toEqual([3, 5]);
    expect(passwordlessRoles('{"role_ids":[7]}')).toEqual([7]);
    // A broken value opens sign-in to no one.
    for (const broken of [null, undefined, '', 'not json', '[]', { role_ids: 'all' }, { role_ids: ['3', -1, 0, 1.5] }, 42]) {
      expect(passwordlessRoles(broken)).toEqual([]);
    }
  });

  it('lets a user sign in with a key when one of their roles is allowed', () => {
    expect(mayUseSecurityKey([1, 4], [4])).toBe(true);
    expect(mayUseSecurityKey([1], [4])).toBe(false);
    expect(mayUseSecurityKey([], [4])).toBe(false);
    expect(mayUseSecurityKey([4], [])).toBe(false);
  });

  it('recognises addresses browsers refuse as a relying party id', () => {
    for (const ip of ['127.0.0.1', '10.0.0.12', '[::1]', '::1', 'fe80::1']) expect(isIpHost(ip), ip).toBe(true);
    for (const host of ['localhost', 'dsms.hospital.example', 'pathology-01', '1.2.3.example']) expect(isIpHost(host), host).toBe(false);
  });

  it('trims a key name and refuses an empty or overlong one', () => {
    expect(securityKeyName('  Blue key ')).toBe('Blue key');
    expect(securityKeyName('   ')).toBeNull();
    expect(securityKeyName('x'.repeat(65))).toBeNull();
    expect(securityKeyName(5)).toBeNull();
  });
});
