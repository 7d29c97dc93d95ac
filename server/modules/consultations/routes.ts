import rateLimit from '@fastify/rate-limit';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import { okResponse } from '../../http/responses.js';
import type { TypedApp } from '../../http/types.js';
import type { Language } from '../../i18n/translate.js';
import { refusalError } from '../../resources/transitions.js';
import { machineOf, transitionPatch, transitionRefusal } from '../../../src/core/stateMachine.js';
import type { RuleResolver } from '../../../src/core/rules.js';
import { recipientsOf } from '../messages/queries.js';
import { closeShares, consultationByToken, consultationIn, consultedCase, issueLink, slideShareToken, writeAnswer } from './queries.js';

const SET = 'consultations';
const DAY = 86_400;
const Token = Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });
const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2 ** 31 - 1 }) });
/** The opinion's limits are the resource's (schemas/resources/consultations.json: opinion ≤ 4000, expert_name ≤ 64). */
const OpinionBody = Type.Object({
  token: Token,
  opinion: Type.String({ minLength: 1, maxLength: 4000 }),
  expert_name: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
}, { additionalProperties: false });

export interface ConsultationOptions {
  rulesFor(hospitalId: number): Promise<RuleResolver>;
  /** The word of a consultation state in the caller's language (enum consultation_status). */
  stateLabel(state: string, lang: Language): string;
  /** Anonymous requests per client address and minute on each link route (AUTH_RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute: number;
}

/**
 * Consultations beyond the generic resource (schemas/resources/consultations.json, issue 32):
 * - the colleagues a consultation may ask (active users of the working hospital), for its form;
 * - issuing a remote consultation's link (a fresh token, the case's slides shared through share links until the expiry);
 * - the link's two signed-out routes: what the expert sees, and their opinion, which is the machine's `answer_link`
 *   step taken by the link's holder (role consultation_link, no user id): the rule file says whether it is open.
 *   Checked on every call by the token, its expiry and the row's state: unknown 404, expired 410, answered once or
 *   withdrawn 410; only that consultation's case is reachable. Rate-limited per client address.
 *
 * The link routes read through `systemDb`, unscoped: the token is the grant and names the one row.
 */
export function consultationRoutes(app: TypedApp, db: Db, systemDb: Db, options: ConsultationOptions): void {
  app.get('/api/department/consultations/colleagues', {
    config: { access: { permission: 'consult_request' } },
    schema: { tags: ['consultations'], summary: 'Who a consultation may ask: active users of the working hospital', response: okResponse() },
  }, async (request) => ok(await recipientsOf(db, workingHospital(request))));

  app.post('/api/department/consultations/link/:id', {
    config: { access: { permission: 'consult_request' } },
    schema: {
      tags: ['consultations'], params: Id, summary: 'Issue a remote consultation\'s link (the old one ends); the link is shown once',
      querystring: Type.Object({ expires_in_days: Type.Optional(Type.Integer({ minimum: 1, maximum: 30 })) }, { additionalProperties: false }),
      response: okResponse(),
    },
  }, async (request) => {
    // The working hospital's, as the resource's own routes (the scoped handle adds the user's directories).
    const row = await consultationIn(db, request.params.id, workingHospital(request));
    if (!row) throw new AppError(404, 'resource.not_found');
    if (row.mode !== 'remote' || row.status !== 'requested') throw new AppError(422, 'consultation.link_remote_only');
    const days = request.query.expires_in_days ?? 7;
    const { token, expires_at } = await issueLink(db, row, request.auth!.id, days * DAY);
    const path = `/consult/answer?token=${token}`;
    return ok({ id: row.id, expires_at, path, link: `${request.protocol}://${request.host}${path}` });
  });

  /** The consultation a token opens now, else the refusal. */
  const open = async (token: string) => {
    const row = await consultationByToken(systemDb, token);
    if (!row || row.mode !== 'remote') throw new AppError(404, 'consultation.link_not_found');
    if (!row.expires_at || row.expires_at <= new Date().toISOString()) throw new AppError(410, 'consultation.link_expired');
    if (row.status === 'withdrawn' || (row.status === 'answered' && row.single_use)) throw new AppError(410, 'consultation.link_closed');
    return row;
  };

  app.register(async (anonymous: TypedApp) => {
    await anonymous.register(rateLimit, { global: false, errorResponseBuilder: () => new AppError(429, 'error.rate_limited') });
    const rateLimited = { max: options.rateLimitPerMinute, timeWindow: 60_000 };

    anonymous.get('/api/consultation/view', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: { tags: ['consultations'], querystring: Type.Object({ token: Token }), summary: 'What a consultation link shows the expert', response: okResponse() },
    }, async (request) => {
      const { token } = request.query;
      const row = await open(token);
      const { case: c, slides } = await consultedCase(systemDb, row.case_id);
      return ok({
        case: c, question: row.question, expert_name: row.expert_name, expert_unit: row.expert_unit, expires_at: row.expires_at,
        status: row.status, single_use: row.single_use, opinion: row.status === 'answered' ? row.opinion : null,
        slides: slides.map((s) => ({ id: s.id, name: s.name, stain: s.stain, path: `/share/view?token=${slideShareToken(token, s.id)}` })),
      });
    });

    anonymous.post('/api/consultation/opinion', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: { tags: ['consultations'], body: OpinionBody, summary: 'The expert\'s opinion through a consultation link', response: okResponse() },
    }, async (request) => {
      const { token, ...input } = request.body;
      const row = await open(token);
      const resolve = await options.rulesFor(row.hospital_id);
      const machine = machineOf(SET, resolve, (m) => request.log.warn({ rules: true }, m));
      if (!machine) throw new AppError(500, 'machine.broken');
      const now = new Date().toISOString();
      const actor = { roles: ['consultation_link'], granted: () => false, id: null };
      const refusal = transitionRefusal(SET, machine, 'answer_link', { record: row, actor, input, now }, resolve);
      if (refusal) throw refusalError(refusal, 'answer_link', machine, request.lang, (_f, state, lang) => options.stateLabel(state, lang));
      const set = { ...transitionPatch(machine, 'answer_link', { userId: null, now }), opinion: input.opinion, ...(input.expert_name ? { expert_name: input.expert_name } : {}) };
      if (!(await writeAnswer(systemDb, row.id, row.status, set))) throw new AppError(409, 'resource.changed');
      // A single-use link ends with its answer, and the slides' share links with it.
      if (row.single_use) await closeShares(systemDb, row.share_ids);
      return ok({ status: machine.transitions.answer_link.to, answered_at: now });
    });
  });
}
