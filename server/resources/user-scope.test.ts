import { fileURLToPath } from 'node:url';
import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { checkResource, loadResources, scopeColumn, type ResourceDef } from './definition.js';
import { SHOW_ALL_DATA_HEADER } from '../http/hospital-scope.js';
import { rowScope, userScope } from './user-scope.js';

const def = (over: Partial<ResourceDef> = {}): ResourceDef => ({
  name: 'things', table: 'things', route: '/api/things',
  permissions: { list: 'p', read: 'p', create: 'p', update: 'p', delete: 'p' },
  columns: { id: { type: 'integer' }, user_id: { type: 'integer', writable: false }, hospital_id: { type: 'integer', writable: false } },
  ...over,
});
const request = (auth: { id: number; hospitalId: number | null; hospitalIds: number[] }, headers: Record<string, string> = {}) =>
  ({ auth, headers }) as unknown as FastifyRequest;

/** Whose rows a scoped resource shows: the user's own ('user') or the chosen hospital's ('hospital', spec §6). */
describe('row scopes of the generic resource API', () => {
  const doctor = { id: 7, hospitalId: 2, hospitalIds: [1, 2] };

  it('names the owner column of each scope', () => {
    expect(scopeColumn({ scope: 'user' })).toBe('user_id');
    expect(scopeColumn({ scope: 'hospital' })).toBe('hospital_id');
    expect(scopeColumn({})).toBeUndefined();
  });

  it('limits a user-scoped resource to the signed-in user, whatever hospital or show-all-data says', () => {
    expect(userScope(def({ scope: 'user' }), request(doctor))).toEqual([7]);
    expect(rowScope(def({ scope: 'user' }), request(doctor, { [SHOW_ALL_DATA_HEADER]: '1' }))).toEqual([7]);
    expect(userScope(def({ scope: 'hospital' }), request(doctor))).toBeUndefined();
  });

  it('keeps the hospital scope as it was, and no scope for an unscoped resource', () => {
    expect(rowScope(def({ scope: 'hospital' }), request(doctor))).toEqual([2]);
    expect(rowScope(def({ scope: 'hospital' }), request(doctor, { [SHOW_ALL_DATA_HEADER]: '1' }))).toEqual([2, 1]);
    expect(rowScope(def(), request(doctor))).toBeUndefined();
  });

  it('refuses at load a scoped resource whose owner column a body could write, or an unknown scope', () => {
    const writable = def({ scope: 'user', columns: { id: { type: 'integer' }, user_id: { type: 'integer' } } });
    expect(() => checkResource(writable, 'things.json')).toThrow('a user-scoped resource needs a read-only user_id column');
    const missing = def({ scope: 'user', columns: { id: { type: 'integer' } } });
    expect(() => checkResource(missing, 'things.json')).toThrow(/read-only user_id/);
    expect(() => checkResource(def({ scope: 'team' as never }), 'things.json')).toThrow('unknown scope team');
    expect(checkResource(def({ scope: 'user' }), 'things.json').scope).toBe('user');
  });

  it('the favourites resources are user-scoped', () => {
    const byName = new Map(loadResources(fileURLToPath(new URL('../../schemas/resources/', import.meta.url))).map((r) => [r.name, r]));
    expect(byName.get('collections')?.scope).toBe('user');
    expect(byName.get('collection_categories')?.scope).toBe('user');
  });
});
