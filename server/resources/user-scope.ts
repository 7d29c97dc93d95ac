import type { FastifyRequest } from 'fastify';
import type { ResourceDef } from './definition.js';
import { hospitalScope } from '../http/hospital-scope.js';
import { isAdmin } from '../../src/core/admin.js';

/**
 * 'user' scope: a user's own rows only (favourites, personal categories). Another user's row is as
 * absent as a deleted one, whatever their permissions. Undefined: the resource is not user-scoped.
 */
export function userScope(def: ResourceDef, request: FastifyRequest): number[] | undefined {
  return def.scope === 'user' ? [request.auth!.id] : undefined;
}

/**
 * 'members' and 'hospitals' scope: an administrator manages every hospital's people and settings; anyone else with
 * the permission (a sub-centre's administrator) those of their own hospitals, all of them at once.
 */
export function managedScope(def: Pick<ResourceDef, 'scope'>, request: FastifyRequest): number[] | undefined {
  if (def.scope !== 'members' && def.scope !== 'hospitals') return undefined;
  const user = request.auth!;
  if (isAdmin({ identification: user.identification, roleNames: user.roleNames })) return undefined;
  return user.hospitalIds.length ? user.hospitalIds : [0];
}

/** The owner ids a scoped resource's reads and writes are limited to (hospital or user); undefined when unscoped. */
export const rowScope = (def: ResourceDef, request: FastifyRequest): number[] | undefined =>
  hospitalScope(def, request) ?? userScope(def, request) ?? managedScope(def, request);
