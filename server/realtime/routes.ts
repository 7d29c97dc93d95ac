import { unauthenticated } from '../http/errors.js';
import { ok } from '../http/envelope.js';
import { bearerToken } from '../http/guard.js';
import type { TypedApp } from '../http/types.js';
import type { RealtimeHub } from './hub.js';
import { okResponse } from '../http/responses.js';

/** `GET /api/realtime/connection`: where and how this session connects to the realtime channel. */
export function realtimeRoutes(app: TypedApp, hub: RealtimeHub): void {
  app.get('/api/realtime/connection', {
    config: { access: 'user' },
    schema: { tags: ['realtime'], response: okResponse() },
  }, async (request) => {
    const token = bearerToken(request.headers.authorization);
    if (!token) throw unauthenticated();
    return ok({ kind: hub.kind, ...(await hub.connection(request.auth!, token)) });
  });
}
