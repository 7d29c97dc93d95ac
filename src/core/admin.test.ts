import { describe, expect, it } from 'vitest';
import { isAdmin, isAdminRoleName } from './admin';

describe('administrator (spec §6: a role named like administrator, demo administrator or admin)', () => {
  it.each([
    ['admin', true], ['Administrator', true], ['  demo   Administrator ', true], ['管理员', true], ['演示管理员', true], ['ADMIN', true],
    ['sub-center administrator', false], ['分中心管理员', false], ['administrators', false], ['admin2', false], ['系统管理员助理', false],
    ['', false], [null, false], [undefined, false],
  ])('role name %j → %s', (name, admin) => {
    expect(isAdminRoleName(name)).toBe(admin);
  });

  it('is the admin role code, or any role whose name says so', () => {
    expect(isAdmin({ identification: ['admin'] })).toBe(true);
    expect(isAdmin({ identification: ['registrar', 'demo_admin'], roleNames: ['登记员', 'Demo administrator'] })).toBe(true);
    expect(isAdmin({ identification: ['registrar'], roleNames: ['登记员'] })).toBe(false);
    // The code must be the whole code: a role coded "sub_admin" is not the administrator.
    expect(isAdmin({ identification: ['sub_admin', 'administrator_assistant'] })).toBe(false);
    expect(isAdmin({ identification: [] })).toBe(false);
  });
});
