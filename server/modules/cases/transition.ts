import type { FastifyRequest } from 'fastify';
import type { Kysely, Updateable } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { CaseTable, Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { wordParam } from './lab-words.js';
import { hospitalScope } from '../../http/hospital-scope.js';
import { transitionAllowed, type CaseState, type CaseTransition, type Transition } from '../../../src/core/caseLifecycle.js';
import { mayRunTransition } from '../../../src/core/caseTransitionRules.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import type { HisAdapter } from '../his/index.js';
import { addTimeline, caseInScope, moveCase, type CaseRow } from './lifecycle-queries.js';

/** What the lifecycle commands need from the app: the database and each hospital's rule sets. */
import type { FormSchema } from '../../../src/core/pageSchema.js';

export interface LabDeps {
  db: Db;
  rulesFor(hospitalId: number): Promise<RuleResolver>;
  /** The hospital information system registration looks patients up in; null when none is configured. */
  his?: HisAdapter | null;
  /**
   * The registration form's contract (schemas/pages/CaseRegistration.json `form.contract`, with the hospital's
   * extension of cases: the fields an administrator added) as the shared form rules read it: every registration
   * is checked with it (src/core/formRules.ts), as the browser's full form is.
   */
  registrationForm?: (hospitalId: number) => Promise<FormSchema | undefined>;
}

export const CASE_SCOPE = { scope: 'hospital' } as const;

/** The hospitals whose cases the request may touch (the chosen one, or all the user's with show-all-data). */
export const scopeOf = (request: FastifyRequest) => hospitalScope(CASE_SCOPE, request) ?? [];

/**
 * The role check of schemas/rules/case-transitions.json, as the case's hospital has it. Refused: 403 naming
 * the step. The route's permission code was checked by the guard already; this is the finer, data-driven part.
 */
export async function requireRole(deps: LabDeps, request: FastifyRequest, transition: Transition, hospitalId: number, caseRow: CaseRow | null): Promise<void> {
  const resolve = await deps.rulesFor(hospitalId);
  if (!mayRunTransition(transition, request.auth!.identification, caseRow as Record<string, unknown> | null, resolve)) {
    throw new AppError(403, 'lab.role_refused', { transition });
  }
}

/** The case a transition starts from: in scope (else 404), the actor's role allowed (else 403), the phase right (else 409). */
export async function caseFor(deps: LabDeps, request: FastifyRequest, transition: CaseTransition, caseId: number): Promise<CaseRow> {
  const current = await caseInScope(deps.db, caseId, scopeOf(request));
  await requireRole(deps, request, transition, current.hospital_id, current);
  if (!transitionAllowed(transition, current)) throw new AppError(409, 'lab.wrong_phase', { phase: wordParam(current.sub_phase || current.main_phase) });
  return current;
}

export interface Move {
  action: string;
  /** The new phase; omitted: the case stays where it is (an order, a number change). */
  to?: CaseState;
  patch?: Updateable<CaseTable>;
  detail?: unknown;
}

/**
 * Commits a transition in one transaction: the case moves only if nobody moved it since it was read
 * (else 409 and nothing is written), then the step's own rows, then the timeline entry. The operation log
 * gets the request itself (server/http/operation-log.ts). Answers the case as it is now.
 */
export async function commitMove(
  deps: LabDeps, request: FastifyRequest, current: CaseRow, move: Move,
  write?: (trx: Kysely<Database>, now: string) => Promise<void>,
): Promise<CaseRow> {
  await commitMoves(deps, request, [{ current, move, write }]);
  return caseInScope(deps.db, current.id, [current.hospital_id]);
}

/** One case's part of a batch: the case as read, its move, and the step's own rows. */
export interface PlannedMove { current: CaseRow; move: Move; write?: (trx: Kysely<Database>, now: string) => Promise<void> }

/**
 * Several cases' transitions in ONE transaction (a batch of slide making): each case moves only if nobody moved
 * it since it was read; the first that cannot rolls every one back (409 lab.changed, nothing written).
 */
export async function commitMoves(deps: LabDeps, request: FastifyRequest, moves: PlannedMove[]): Promise<void> {
  const now = new Date().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    for (const { current, move, write } of moves) {
      await moveCase(trx, current, { ...move.patch, ...(move.to ? { ...move.to, phase_at: now } : {}) }, now);
      if (write) await write(trx, now);
      await addTimeline(trx, current.hospital_id, current.id, { action: move.action, actor: request.auth!, from: current, to: move.to ?? current, detail: move.detail }, now);
    }
  });
}
