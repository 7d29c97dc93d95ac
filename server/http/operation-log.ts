import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/connect.js';
import { redactTokens } from './redact.js';
import { maskSecrets } from './secrets.js';

const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/**
 * Every write that reaches a route is recorded with who, what and the outcome (ARCHITECTURE.md §6).
 * The row is written before the response leaves: if the log cannot be written the caller sees an error,
 * so no write is ever answered without its record.
 */
export function registerOperationLog(app: FastifyInstance, db: Db): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (!WRITE_METHODS.has(request.method) || !request.url.startsWith('/api/') || request.routeOptions.config?.audit === false) return payload;
    // Login attempts have their own log, with the reason; logging them here would double them.
    if (request.routeOptions.url === '/api/auth/login') return payload;
    await db.insertInto('operation_logs').values({
      user_id: request.auth?.id ?? null,
      username: request.auth?.name ?? null,
      method: request.method,
      path: redactTokens(request.url).slice(0, 2000),
      route: request.routeOptions.url ?? null,
      status_code: reply.statusCode,
      payload: summarise(request.body),
      ip: request.ip,
      created_at: new Date().toISOString(),
    }).execute();
    return payload;
  });
}

function summarise(body: unknown): string | null {
  if (body === undefined || body === null) return null;
  if (typeof body !== 'object' || Buffer.isBuffer(body)) return null;
  const text = JSON.stringify(body, maskSecrets);
  return text.length > 4000 ? `${text.slice(0, 4000)}…` : text;
}
