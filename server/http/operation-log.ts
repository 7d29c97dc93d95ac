import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Insertable } from 'kysely';
import type { Db } from '../db/connect.js';
import { retryBusy } from '../db/retry-busy.js';
import type { OperationLogTable } from '../db/schema.js';
import { GroupInsert } from './group-insert.js';
import { redactTokens } from './redact.js';
import { maskSecrets } from './secrets.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every write that reaches a route is recorded with who, what and the outcome (ARCHITECTURE.md §6).
 * The row is written before the response leaves: if the log cannot be written the caller sees an error,
 * so no write is ever answered without its record.
 * The hook is attached, as routes are declared, to the write routes only (and not to those that opt out):
 * reads, by far the most frequent calls, pay nothing for it. A route-level hook still runs when the guard
 * refuses the call, so refused writes are recorded as before.
 * Rows are group-committed (group-insert.ts): writes answered together share one INSERT, so a burst of writes (the
 * chunks of an upload, 4 in flight per uploader) costs one commit per batch, and each still answers only after
 * its own row is in the database. A SQLite busy past its timeout (another process's commit on a saturated disk)
 * is waited out a few times more rather than failing a write that was done.
 */
export function registerOperationLog(app: FastifyInstance, db: Db): void {
  const rows = new GroupInsert<Insertable<OperationLogTable>>(async (batch) => {
    await retryBusy(() => db.insertInto('operation_logs').values(batch).execute());
  });
  const record = async (request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    if (!WRITE_METHODS.has(request.method)) return payload;
    await rows.add({
      user_id: request.auth?.id ?? null,
      username: request.auth?.name ?? null,
      method: request.method,
      path: redactTokens(request.url).slice(0, 2000),
      route: request.routeOptions.url ?? null,
      status_code: reply.statusCode,
      payload: summarise(request.body),
      ip: request.ip,
      created_at: new Date().toISOString(),
      hospital_id: loggedHospital(request),
    });
    return payload;
  };
  app.addHook('onRoute', (route) => {
    const methods = ([] as string[]).concat(route.method);
    if (!methods.some((m) => WRITE_METHODS.has(m)) || !route.url.startsWith('/api/') || route.config?.audit === false) return;
    // Login attempts have their own log, with the reason; logging them here would double them.
    if (route.url === '/api/auth/login') return;
    route.onSend = [...(route.onSend === undefined ? [] : Array.isArray(route.onSend) ? route.onSend : [route.onSend]), record];
  });
}

/**
 * The hospital a log row belongs to, the one its readers must hold (the row scope, scoped-tables.ts): the hospital the
 * request worked in. Null when nobody is signed in (a refused write): administrators alone read those.
 */
function loggedHospital(request: FastifyRequest): number | null {
  return request.auth ? (request.auth.hospitalId ?? request.auth.hospitalIds[0] ?? null) : null;
}

function summarise(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body !== 'object' || Buffer.isBuffer(body)) return null;
  const text = JSON.stringify(body, maskSecrets);
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}
