import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { APPLICATION_STEPS, type ApplicationStep } from '../../../src/core/caseLifecycle.js';
import { wordParam } from './lab-words.js';
import { addTimeline } from './lifecycle-queries.js';
import { requireRole, scopeOf, type LabDeps } from './transition.js';

type Application = Awaited<ReturnType<typeof applicationInScope>>;

async function applicationInScope(deps: LabDeps, request: FastifyRequest, id: number) {
  const row = await deps.db.selectFrom('case_applications').selectAll().where('id', '=', id).where('hospital_id', 'in', scopeOf(request)).executeTakeFirst();
  if (!row) throw new AppError(404, 'lab.application_not_found');
  return row;
}

/**
 * SlideApply's dispatch (0 → 1) and receipt (1 → 2): the application in scope (404), the actor's role by
 * schemas/rules/case-transitions.json (403), the state the step starts from (409 naming the state), all before
 * anything is written; then one conditional update (the second of two at once is refused, 409 lab.changed). The
 * operation log records the request; the application has no case timeline yet, so the step's who and when stay
 * on its row until registration copies them to the case (applicationHistory).
 */
export async function stepApplication(deps: LabDeps, request: FastifyRequest, id: number, step: ApplicationStep): Promise<Application> {
  const app = await applicationInScope(deps, request, id);
  await requireRole(deps, request, step, app.hospital_id, null);
  const rule = APPLICATION_STEPS[step];
  if (app.status !== rule.from) throw new AppError(409, `lab.${step}_refused`, { state: wordParam(`application_${app.status}`) });
  const now = new Date().toISOString();
  await deps.db.transaction().execute(async (trx) => {
    const res = await trx.updateTable('case_applications')
      .set({ status: rule.to, [rule.at]: now, [rule.by]: request.auth!.id, version: app.version + 1, updated_at: now })
      .where('id', '=', app.id).where('version', '=', app.version).where('status', '=', rule.from).executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw new AppError(409, 'lab.changed');
  });
  return applicationInScope(deps, request, id);
}

/**
 * The application's steps before registration, as timeline rows of the case it became (at their own times, by
 * their own actors), so the case's timeline starts with the clinic's request.
 */
export async function applicationHistory(trx: Kysely<Database>, caseId: number, app: Application): Promise<void> {
  const steps = [
    { action: 'apply', at: app.created_at, by: app.applied_by },
    { action: 'dispatch_application', at: app.dispatched_at, by: app.dispatched_by },
    { action: 'receive_application', at: app.received_at, by: app.received_by },
  ].filter((s): s is { action: string; at: string; by: number | null } => Boolean(s.at));
  const ids = steps.map((s) => s.by).filter((b): b is number => b !== null);
  const users = ids.length ? await trx.selectFrom('users').select(['id', 'name', 'realname']).where('id', 'in', ids).execute() : [];
  for (const s of steps) {
    const u = users.find((x) => x.id === s.by);
    await addTimeline(trx, app.hospital_id, caseId, {
      action: s.action, actor: { id: s.by ?? 0, name: u?.name ?? '', realname: u?.realname ?? '' },
      detail: { application_id: app.id, apply_number: app.apply_number },
    }, s.at);
  }
}
