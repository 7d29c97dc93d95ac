import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { translate } from '../i18n/translate.js';
import { RULE_LIMITS, RuleCostError } from '../../src/core/ruleBudget.js';

/** One place turns every failure into `{ message, errors }` in the caller's language; no stack leaves the server. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError | AppError | RuleCostError, request, reply) => {
    const lang = request.lang;
    if (err instanceof AppError) {
      const errors = err.fieldErrors
        ? Object.fromEntries(Object.entries(err.fieldErrors).map(([f, list]) => [f, list.map((e) => translate(lang, e.key, e.params))]))
        : undefined;
      return reply.status(err.status).send({ message: translate(lang, err.key, err.params), ...(errors ? { errors } : {}) });
    }
    if (err instanceof RuleCostError) {
      // A hospital's rule, not the request, is at fault: the log says which request ran into it.
      request.log.error({ limit: err.limit, max: RULE_LIMITS[err.limit], url: request.url, hospitalId: request.auth?.hospitalId }, 'rule evaluation stopped: too costly');
      return reply.status(422).send({ message: translate(lang, 'rule.too_costly', { limit: `msg:rule.limit_${err.limit}`, max: RULE_LIMITS[err.limit] }) });
    }
    if (err.validation) {
      return reply.status(422).send(validationBody(request, err));
    }
    const status = err.statusCode ?? 500;
    if (status === 413) return reply.status(413).send({ message: translate(lang, 'error.too_large') });
    if (status === 429) return reply.status(429).send({ message: translate(lang, 'error.rate_limited') });
    if (status >= 400 && status < 500) return reply.status(400).send({ message: translate(lang, 'error.bad_request') });
    request.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ message: translate(lang, 'error.internal') });
  });
}

export function apiNotFound(request: FastifyRequest) {
  return { message: translate(request.lang, 'error.route_not_found', { path: request.url.split('?')[0] }) };
}

function validationBody(request: FastifyRequest, err: FastifyError) {
  const lang = request.lang;
  const errors: Record<string, string[]> = {};
  for (const v of err.validation ?? []) {
    const missing = v.keyword === 'required' ? String((v.params as { missingProperty?: string }).missingProperty) : undefined;
    const field = missing ?? (v.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body');
    const text = missing
      ? translate(lang, 'error.field_required', { field })
      : translate(lang, 'error.field_invalid', { field, reason: v.message ?? v.keyword });
    (errors[field] ??= []).push(text);
  }
  return { message: translate(lang, 'error.validation'), errors };
}
