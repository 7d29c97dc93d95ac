import { clinicalReachMode, readsClinically } from '../../src/core/clinicalReach.js';
import type { RuleResolver } from '../../src/core/rules.js';
import type { ClinicalReach } from '../db/clinical-reach.js';
import { hasPermission } from './access.js';
import type { SessionUser } from './types.js';

/**
 * A clinician's reach for this request (undefined, without a promise, for anyone who is not one). `hot`: a
 * read-only hot path (tiles, `cachedSession`) that reads no report: it gets no reports rather than a rule lookup.
 */
export type ClinicalReachOf = (user: SessionUser, hot: boolean) => Promise<ClinicalReach> | undefined;

/** Reads each of the clinician's hospitals' `clinical-reach` rule afresh, so a changed rule counts from the next request. */
export function clinicalReachOf(rulesFor: (hospitalId: number) => Promise<RuleResolver>): ClinicalReachOf {
  return (user, hot) => {
    if (!readsClinically((code) => hasPermission(user, code))) return undefined;
    if (hot) return Promise.resolve(Object.freeze({ userId: user.id, hospitals: [] }));
    return Promise.all(user.hospitalIds.map(async (id) => ({ id, mode: clinicalReachMode(await rulesFor(id)) })))
      .then((hospitals) => Object.freeze({ userId: user.id, hospitals: Object.freeze(hospitals) }));
  };
}
