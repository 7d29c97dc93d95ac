import { describe, expect, it } from 'vitest';
import { actionVisible, fillTemplate, isGranted } from './actions.js';
import type { ActionSchema } from './pageSchema.js';

const perms = { list: 'u', read: 'u', create: 'u_create', update: 'u', delete: 'u_delete' };
const disable: ActionSchema = { key: 'disable', label: 'x', kind: 'patch', permission: 'system_user', visibleIf: { '==': [{ var: 'status' }, 1] } };

describe('actions: permission codes and visibleIf', () => {
  it('admin may do everything; others need the code', () => {
    expect(isGranted('x', { identification: ['admin'], permission: [] })).toBe(true);
    expect(isGranted('x', { identification: ['registrar'], permission: ['x'] })).toBe(true);
    expect(isGranted('x', { identification: ['registrar'], permission: [] })).toBe(false);
    expect(isGranted(undefined, null)).toBe(true);
    expect(isGranted('x', null)).toBe(false);
  });
  it('checks visibleIf against the row', () => {
    const grants = { identification: [], permission: ['system_user', 'u'] };
    expect(actionVisible(disable, { status: 1 }, grants, perms)).toBe(true);
    expect(actionVisible(disable, { status: 0 }, grants, perms)).toBe(false);
  });
  it('resolves a named rule in visibleIf (a hospital\'s rule sets); an unknown name hides the action', () => {
    const grants = { identification: [], permission: ['system_user', 'u'] };
    const named: ActionSchema = { ...disable, visibleIf: { rule: 'actions.enabled' } };
    const resolve = (name: string) => (name === 'actions.enabled' ? { '==': [{ var: 'status' }, 1] } : undefined);
    expect(actionVisible(named, { status: 1 }, grants, perms, resolve)).toBe(true);
    expect(actionVisible(named, { status: 0 }, grants, perms, resolve)).toBe(false);
    expect(actionVisible(named, { status: 1 }, grants, perms)).toBe(false);
  });
  it('shows an action with roles only to those roles; an administrator sees it; no roles is everyone', () => {
    const quick: ActionSchema = { key: 'q', label: 'x', kind: 'patch', roles: ['registrar', 'sampler'] };
    const as = (identification: string[]) => ({ identification, permission: ['u'] });
    expect(actionVisible(quick, null, as(['registrar']), perms)).toBe(true);
    expect(actionVisible(quick, null, as(['technician', 'sampler']), perms)).toBe(true);
    expect(actionVisible(quick, null, as(['technician']), perms)).toBe(false);
    expect(actionVisible(quick, null, { identification: ['admin'], permission: [] }, perms)).toBe(true);
    expect(actionVisible(quick, null, null, perms)).toBe(false);
    expect(actionVisible({ ...quick, roles: [] }, null, as(['technician']), perms)).toBe(true);
  });
  it('needs the resource permission of the kind too', () => {
    const del: ActionSchema = { key: 'd', label: 'x', kind: 'delete' };
    expect(actionVisible(del, {}, { identification: [], permission: ['u'] }, perms)).toBe(false);
    expect(actionVisible(del, {}, { identification: [], permission: ['u_delete'] }, perms)).toBe(true);
  });
  it('fills route templates', () => {
    expect(fillTemplate('/manage/system/user/{id}', { id: 5 })).toBe('/manage/system/user/5');
    expect(fillTemplate('/x/{a}/{b}', { a: 'a b' })).toBe('/x/a%20b/');
  });
});
