import type { FastifyRequest } from 'fastify';
import { stdSerializers } from 'pino';
import { redactTokens } from './redact.js';

/**
 * pino serializers for the request log: Fastify's own, with any token in a URL replaced (redact.ts). Clients no
 * longer put the session token in URLs (image-cookie.ts), but an old page or a hand-made link may; the log must
 * not keep it. Headers are not logged at all (Authorization and Cookie included).
 */
export const logSerializers = {
  req(req: FastifyRequest) {
    return {
      method: req.method,
      url: redactTokens(req.url),
      version: [req.headers?.['accept-version']].flat()[0],
      host: req.host,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
  err(err: Error) {
    const out = stdSerializers.err(err);
    out.message = redactTokens(out.message);
    if (out.stack) out.stack = redactTokens(out.stack);
    return out;
  },
};
