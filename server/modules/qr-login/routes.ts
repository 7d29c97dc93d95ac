import rateLimit from '@fastify/rate-limit';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { accountState } from '../auth/lockout.js';
import { loginLog } from '../auth/login.js';
import { issueToken } from '../auth/tokens.js';
import { findUserById, hospitalsOf } from '../users/queries.js';
import { createQrLogin, decide, expired, findQrLogin, markUsed, QR_LIFETIME_MS, secretMatches, type QrRow } from './queries.js';
import { okResponse } from '../../http/responses.js';

const tags = ['auth'];
const Code = Type.String({ minLength: 16, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' });

export interface QrLoginOptions {
  tokenTtlSeconds: number;
  /** The address phones open (PUBLIC_URL); else this request's own origin. */
  publicUrl?: string;
  rateLimitPerMinute: number;
}

/** Why a request cannot be used now: missing, expired, declined or already collected. */
function refusal(row: QrRow | undefined): AppError | null {
  if (!row) return new AppError(404, 'qr.not_found');
  if (row.status === 'used') return new AppError(409, 'qr.used');
  if (row.status === 'declined') return new AppError(403, 'qr.declined');
  if (expired(row)) return new AppError(410, 'qr.expired');
  return null;
}

/**
 * QR login (spec §4, §7 `ca/login`, `ca/login/check`): the login page asks for a code and shows it as a QR code; a
 * phone signed in to DSMS opens it and approves (or declines); the login page, polling with its secret, collects a
 * session of the approving user once. Codes last two minutes and serve once.
 */
export function qrLoginRoutes(app: TypedApp, db: Db, options: QrLoginOptions): void {
  app.register(async (scope: TypedApp) => {
    await scope.register(rateLimit, { global: false, errorResponseBuilder: () => new AppError(429, 'error.rate_limited') });
    const rateLimited = { max: options.rateLimitPerMinute, timeWindow: 60_000 };

    scope.post('/api/ca/login', { config: { access: 'public', rateLimit: rateLimited }, schema: { tags, summary: 'A QR login code', response: okResponse() } }, async (request) => {
      const { id, secret, expiresAt } = await createQrLogin(db, { ip: request.ip, userAgent: request.headers['user-agent'] });
      const origin = options.publicUrl?.replace(/\/+$/, '') ?? `${request.protocol}://${request.host}`;
      const url = `${origin}/h5/qr-login?c=${id}`;
      const { default: QRCode } = await import('qrcode'); // loaded by the first code asked for, not at start
      const qr = `data:image/svg+xml;base64,${Buffer.from(await QRCode.toString(url, { type: 'svg', margin: 1, errorCorrectionLevel: 'M' })).toString('base64')}`;
      return ok({ id, secret, url, qr, expires_at: expiresAt.toISOString(), expires_in: QR_LIFETIME_MS / 1000 });
    });

    // Polled every second or two by the waiting login page, hence its own generous limit.
    scope.post('/api/ca/login/check', {
      config: { access: 'public', audit: false, rateLimit: { ...rateLimited, max: rateLimited.max * 2 } },
      schema: { tags, body: Type.Object({ id: Code, secret: Code }, { additionalProperties: false }), response: okResponse() },
    }, async (request) => {
      const { id, secret } = request.body;
      const row = await findQrLogin(db, id);
      if (!row || !secretMatches(row, secret)) throw new AppError(404, 'qr.not_found');
      const refused = refusal(row);
      if (refused) throw refused;
      if (row.status === 'waiting') return ok({ status: 'waiting' });
      if (!(await markUsed(db, id))) throw refusal(await findQrLogin(db, id)) ?? new AppError(409, 'qr.used');
      const user = await findUserById(db, row.user_id!);
      const now = new Date();
      const record = loginLog(db, user?.name ?? '', { ip: request.ip, userAgent: request.headers['user-agent'] }, now);
      const state = user ? accountState(user, now) : 'disabled';
      if (!user || state !== 'ok') {
        await record(user?.id ?? null, false, `qr_${state}`);
        throw new AppError(403, state === 'ok' ? 'auth.user_disabled' : `auth.user_${state}`);
      }
      const hospitals = await hospitalsOf(db, user.id);
      const token = await issueToken(db, user.id, hospitals[0]?.id ?? null, options.tokenTtlSeconds);
      await record(user.id, true, 'qr');
      return ok({ status: 'approved', token_type: 'Bearer', access_token: token, expires_in: options.tokenTtlSeconds, user_id: user.id });
    });
  });

  // The phone's side: what is asking (so the user knows what they approve), and the answer.
  app.get('/api/ca/login/request/:id', { config: { access: 'user', audit: false }, schema: { tags, params: Type.Object({ id: Code }), response: okResponse() } }, async (request) => {
    const row = await findQrLogin(db, request.params.id);
    const refused = refusal(row) ?? (row!.status !== 'waiting' ? new AppError(409, 'qr.used') : null);
    if (refused) throw refused;
    return ok({ status: row!.status, ip: row!.ip, user_agent: row!.user_agent, created_at: row!.created_at, expires_at: row!.expires_at });
  });

  app.post('/api/ca/login/approve', {
    config: { access: 'user' },
    schema: { tags, body: Type.Object({ id: Code, approve: Type.Boolean() }, { additionalProperties: false }), response: okResponse() },
  }, async (request) => {
    const { id, approve } = request.body;
    if (await decide(db, id, request.auth!.id, approve)) return ok({ status: approve ? 'approved' : 'declined' });
    throw refusal(await findQrLogin(db, id)) ?? new AppError(409, 'qr.used');
  });
}
