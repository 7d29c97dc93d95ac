import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { redactTokens } from '../../http/redact.js';
import type { TypedApp } from '../../http/types.js';
import { insertErrorLog } from './queries.js';
import { okResponse } from '../../http/responses.js';

/**
 * Browser error reports (spec §7: JS and HTTP errors with the route path) land in error_logs, where
 * LogError lists them. Reports are capped in size and rate so a looping page cannot flood the table.
 */
export function logRoutes(app: TypedApp, db: Db): void {
  const recent = new Map<number, number[]>();
  app.post('/api/logs/errors', {
    config: { access: 'user', audit: false },
    schema: {
      tags: ['logs'],
      body: Type.Object({ message: Type.String({ minLength: 1, maxLength: 4000 }), page: Type.Optional(Type.String({ maxLength: 2000 })) }), response: okResponse()
    },
  }, async (request) => {
    const { message, page } = request.body;
    const user = request.auth!;
    const now = Date.now();
    const mine = (recent.get(user.id) ?? []).filter((t) => now - t < 60_000);
    if (mine.length >= 30) return ok({ stored: false });
    recent.set(user.id, [...mine, now]);
    await insertErrorLog(db, {
      // A page address may carry a token (spec §4's /inner/view?token=…): never stored.
      user_id: user.id, username: user.name, page: page === undefined ? null : redactTokens(page), message: redactTokens(message),
      user_agent: request.headers['user-agent']?.slice(0, 500) ?? null, created_at: new Date().toISOString(),
    });
    return ok({ stored: true });
  });
}
