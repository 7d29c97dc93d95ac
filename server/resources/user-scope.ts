import type { FastifyRequest } from 'fastify';
import type { ResourceDef } from './definition.js';
import { hospitalScope } from '../http/hospital-scope.js';

/**
 * 'user' scope: a user's own rows only (favourites, personal categories). Another user's row is as
 * absent as a deleted one, whatever their permissions. Undefined: the resource is not user-scoped.
 */
export function userScope(def: ResourceDef, request: FastifyRequest): number[] | undefined {
  return def.scope === 'user' ? [request.auth!.id] : undefined;
}

/** The owner ids a scoped resource's reads and writes are limited to (hospital or user); undefined when unscoped. */
export const rowScope = (def: ResourceDef, request: FastifyRequest): number[] | undefined => hospitalScope(def, request) ?? userScope(def, request);
