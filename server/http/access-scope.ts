import { AsyncLocalStorage } from 'node:async_hooks';
import type { FastifyInstance } from 'fastify';
import { directoryRestriction } from '../../src/core/subspecialty.js';
import type { ClinicalReach } from '../db/clinical-reach.js';
import type { Db } from '../db/connect.js';
import { RowScopePlugin, type RowScope } from '../db/row-scope.js';
import { shareBus } from '../events/bus.js';
import { hasPermission, isAdmin } from './access.js';
import type { ClinicalReachOf } from './clinical-scope.js';
import type { SessionUser } from './types.js';

/**
 * One access scope per request (issue 27): who the user is, the hospitals and subspecialty directories whose cases
 * and slides they may reach, and their permissions. Built once, after the guard (and a route's own session hook,
 * the image cookie's) have settled `request.auth`; every statement of the request-scoped handle reads it.
 *
 * `hospitals` is every hospital of the user: by id, a user reaches any of them. The chosen hospital, or all of them
 * with show-all-data (hospital-scope.ts), only narrows lists: which of the rows one may see a page shows.
 */
export interface AccessScope extends RowScope {
  readonly userId: number;
  readonly hospitals: readonly number[];
  /** Undefined: every directory (administrators, users holding none). */
  readonly directories?: readonly number[];
  /** An administrator (src/core/admin.ts): also reads the operation log's rows of no hospital (signed-out writes). */
  readonly admin: boolean;
  /** A clinician's reach over the reports (clinical-scope.ts); undefined for everyone else. */
  readonly clinical?: ClinicalReach;
  may(permission: string): boolean;
}

export function accessScopeOf(user: SessionUser, clinical?: ClinicalReach): AccessScope {
  return Object.freeze({
    userId: user.id,
    hospitals: Object.freeze([...user.hospitalIds]),
    directories: directoryRestriction(user),
    admin: isAdmin(user),
    ...(clinical ? { clinical } : {}),
    may: (permission: string) => hasPermission(user, permission),
  });
}

const current = new AsyncLocalStorage<AccessScope | undefined>();

/** The scope of the request this code runs for; undefined outside a signed-in request (the scoped handle then reaches no rows). */
export const currentScope = (): AccessScope | undefined => current.getStore();

/**
 * The handle route modules get: every statement over cases, slides and what hangs off them is narrowed to the
 * scope of the request it runs in (server/db/row-scope.ts). Outside a signed-in request it reaches none of those
 * rows: code that forgets its scope finds nothing instead of everything. System work (jobs, migrations, seed,
 * login, token-checked public links) is handed the unscoped handle by name in app.ts.
 */
export function scopedDb(system: Db): Db {
  const scoped = system.withPlugin(new RowScopePlugin(currentScope));
  shareBus(scoped, system);
  return scoped;
}

/**
 * Runs the rest of each request (validation, handler, its promises) inside its scope. preHandler: after every
 * onRequest hook, a route's own session hooks included. A clinician's reach is read from their hospitals' rules
 * first (`clinicalReachOf`); everyone else's scope is made at once, without a statement.
 */
export function registerAccessScope(app: FastifyInstance, clinicalReachOf?: ClinicalReachOf): void {
  app.decorateRequest('scope', undefined);
  app.addHook('preHandler', (request, _reply, done) => {
    const enter = (scope: AccessScope | undefined) => {
      request.scope = scope;
      current.run(scope, done);
    };
    const user = request.auth;
    if (!user) return enter(undefined);
    const reach = clinicalReachOf?.(user, request.routeOptions.config?.cachedSession === true);
    if (!reach) return enter(accessScopeOf(user));
    reach.then((clinical) => enter(accessScopeOf(user, clinical)), done);
  });
}

declare module 'fastify' {
  interface FastifyRequest {
    /** This request's access scope (access-scope.ts); undefined when no one is signed in. */
    scope: AccessScope | undefined;
  }
}
