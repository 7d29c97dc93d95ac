import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { issueChallenge } from './challenge.js';
import { login, verifyLockScreen } from './login.js';
import { revokeToken, setTokenHospital } from './tokens.js';

const Sealed = Type.String({ minLength: 1, maxLength: 4096, description: 'base64 of RSA-OAEP-SHA256("nonce:password")' });

export interface AuthEvents {
  /** A session was ended by logout; caches of sessions in this process drop it (tiles' session cache). */
  onLogout?(tokenHash: string): void;
}

export function authRoutes(app: FastifyInstance, db: Db, tokenTtlSeconds: number, events: AuthEvents = {}): void {
  app.get('/api/auth/challenge', {
    config: { access: 'public' },
    schema: { tags: ['auth'], summary: 'Public key and a single-use nonce for sealing a password' },
  }, async () => ok(await issueChallenge(db)));

  app.post('/api/auth/login', {
    config: { access: 'public' },
    schema: {
      tags: ['auth'],
      body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }), password: Sealed, key_id: Type.String({ minLength: 1, maxLength: 64 }) }),
    },
  }, async (request) => {
    const body = request.body as { username: string; password: string; key_id: string };
    return ok(await login(db, body, { ip: request.ip, userAgent: request.headers['user-agent'] }, tokenTtlSeconds));
  });

  app.post('/api/auth/logout', { config: { access: 'user' }, schema: { tags: ['auth'] } }, async (request) => {
    await revokeToken(db, request.auth!.tokenHash);
    events.onLogout?.(request.auth!.tokenHash);
    return ok(null);
  });

  app.post('/api/auth/lock_screen_verify', {
    config: { access: 'user' },
    schema: { tags: ['auth'], body: Type.Object({ name: Type.Optional(Type.String()), password: Sealed, key_id: Type.String({ minLength: 1 }) }) },
  }, async (request) => {
    const body = request.body as { password: string; key_id: string };
    return ok({ success: await verifyLockScreen(db, request.auth!.id, body.key_id, body.password) });
  });

  app.post('/api/auth/switch_hospital', {
    config: { access: 'user' },
    schema: { tags: ['auth'], body: Type.Object({ hospital_id: Type.Integer({ minimum: 1 }) }) },
  }, async (request) => {
    const { hospital_id } = request.body as { hospital_id: number };
    if (!request.auth!.hospitalIds.includes(hospital_id)) throw new AppError(403, 'auth.hospital_not_allowed');
    await setTokenHospital(db, request.auth!.tokenHash, hospital_id);
    return ok({ hospital_id });
  });
}
