import rateLimit from '@fastify/rate-limit';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { issueChallenge } from './challenge.js';
import { login, verifyLockScreen } from './login.js';
import { revokeToken, setTokenHospital, setTokenScreenLock } from './tokens.js';
import { okResponse } from '../../http/responses.js';

const Sealed = Type.String({ minLength: 1, maxLength: 4096, description: 'base64 of RSA-OAEP-SHA256("nonce:password")' });

export interface AuthOptions {
  tokenTtlSeconds: number;
  /** Anonymous requests per client address and minute on each of login and challenge (AUTH_RATE_LIMIT_PER_MINUTE). */
  rateLimitPerMinute: number;
}

export interface AuthEvents {
  /** A session was ended by logout; caches of sessions in this process drop it (tiles' session cache). */
  onLogout?(tokenHash: string): void;
  /**
   * Where the browser goes after logout to end a sign-in elsewhere too (the OpenID Connect provider's
   * end_session_endpoint), or null. Asked once, after the session has ended here.
   */
  signOutUrl?(tokenHash: string): Promise<string | null>;
  /** A session's screen was locked or unlocked; caches of sessions in this process drop their copy. */
  onScreenLock?(tokenHash: string): void;
}

export function authRoutes(app: TypedApp, db: Db, options: AuthOptions, events: AuthEvents = {}): void {
  const client = (request: { ip: string; headers: { 'user-agent'?: string } }) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });

  // The anonymous routes in a scope of their own, so the rate limit applies to them and nothing else. Per client
  // address and route (a login takes one of each): a hospital behind one NAT address shares it, hence a default well
  // above what its staff log in at. Counted per process.
  app.register(async (anonymous: TypedApp) => {
    await anonymous.register(rateLimit, { global: false, errorResponseBuilder: () => new AppError(429, 'error.rate_limited') });
    const rateLimited = { max: options.rateLimitPerMinute, timeWindow: 60_000 };

    anonymous.get('/api/auth/challenge', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: { tags: ['auth'], summary: 'Public key and a single-use nonce for sealing a password', response: okResponse() },
    }, async () => ok(await issueChallenge(db)));

    anonymous.post('/api/auth/login', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: {
        tags: ['auth'],
        body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }), password: Sealed, key_id: Type.String({ minLength: 1, maxLength: 64 }) }), response: okResponse()
      },
    }, async (request) => {
      return ok(await login(db, request.body, client(request), options.tokenTtlSeconds));
    });
  });

  app.post('/api/auth/logout', { config: { access: 'user' }, schema: { tags: ['auth'], response: okResponse() } }, async (request) => {
    await revokeToken(db, request.auth!.tokenHash);
    events.onLogout?.(request.auth!.tokenHash);
    const logoutUrl = await events.signOutUrl?.(request.auth!.tokenHash) ?? null;
    // Spec §7 reads nothing from logout; a session from single sign-on gets where to end it at the provider.
    return ok(logoutUrl ? { logout_url: logoutUrl } : null);
  });

  app.post('/api/auth/lock', {
    config: { access: 'user' },
    schema: { tags: ['auth'], summary: 'Locks this session’s screen: its other calls are refused (423) until lock_screen_verify unlocks it', response: okResponse() },
  }, async (request) => {
    await setTokenScreenLock(db, request.auth!.tokenHash, new Date().toISOString());
    events.onScreenLock?.(request.auth!.tokenHash);
    return ok(null);
  });

  app.post('/api/auth/lock_screen_verify', {
    config: { access: 'user' },
    schema: { tags: ['auth'], body: Type.Object({ name: Type.Optional(Type.String({ maxLength: 64 })), password: Sealed, key_id: Type.String({ minLength: 1, maxLength: 64 }) }), response: okResponse() },
  }, async (request) => {
    const { key_id, password } = request.body;
    const success = await verifyLockScreen(db, request.auth!, key_id, password, client(request));
    if (success) events.onScreenLock?.(request.auth!.tokenHash);
    return ok({ success });
  });

  app.post('/api/auth/switch_hospital', {
    config: { access: 'user' },
    schema: { tags: ['auth'], body: Type.Object({ hospital_id: Type.Integer({ minimum: 1 }) }), response: okResponse() },
  }, async (request) => {
    const { hospital_id } = request.body;
    if (!request.auth!.hospitalIds.includes(hospital_id)) throw new AppError(403, 'auth.hospital_not_allowed');
    await setTokenHospital(db, request.auth!.tokenHash, hospital_id);
    return ok({ hospital_id });
  });
}
