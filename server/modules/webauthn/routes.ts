import rateLimit from '@fastify/rate-limit';
import { Type, type TProperties } from '@sinclair/typebox';
import { SECURITY_KEY_NAME_MAX } from '../../../src/core/securityKeys.js';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { userMayUseKeys } from './policy.js';
import { credentialsOf, deleteOwnCredential } from './queries.js';
import { registerKey, registrationOptions } from './registration.js';
import { relyingParty } from './relying-party.js';
import { signInOptions, signInWithKey } from './sign-in.js';
import { okResponse } from '../../http/responses.js';

const tags = ['auth'];
const B64 = (max: number) => Type.String({ minLength: 1, maxLength: max, pattern: '^[A-Za-z0-9_-]+={0,2}$' });
/** A credential id is at most 1,023 bytes (WebAuthn §5.8.5): 1,364 characters of base64url. */
const CredentialId = B64(1400);
const Extensions = Type.Record(Type.String({ maxLength: 64 }), Type.Unknown(), { maxProperties: 16 });
const Transports = Type.Array(Type.String({ maxLength: 32 }), { maxItems: 8 });

/** The envelope both browser answers share (startRegistration, startAuthentication); only `response` differs. */
const credentialAnswer = <T extends TProperties>(response: T) => Type.Object({
  id: CredentialId,
  rawId: CredentialId,
  type: Type.Literal('public-key'),
  authenticatorAttachment: Type.Optional(Type.Union([Type.Literal('platform'), Type.Literal('cross-platform')])),
  clientExtensionResults: Extensions,
  response: Type.Object(response),
});

/** What @simplewebauthn/browser's startRegistration answers, bounded (attestation certificates fit in 64 K). */
const RegistrationResponse = credentialAnswer({
  clientDataJSON: B64(8192),
  attestationObject: B64(65536),
  authenticatorData: Type.Optional(B64(65536)),
  publicKey: Type.Optional(B64(8192)),
  publicKeyAlgorithm: Type.Optional(Type.Integer()),
  transports: Type.Optional(Transports),
});

/** What startAuthentication answers. */
const AuthenticationResponse = credentialAnswer({
  clientDataJSON: B64(8192),
  authenticatorData: B64(8192),
  signature: B64(2048),
  userHandle: Type.Optional(B64(128)),
});

export interface WebauthnOptions {
  tokenTtlSeconds: number;
  /** PUBLIC_URL: its host name is the relying party id; without it, the request's Host. */
  publicUrl?: string;
  rateLimitPerMinute: number;
}

/**
 * Hardware keys (issue 17, WebAuthn with @simplewebauthn/server): a signed-in user registers, lists and deletes
 * their own keys; anyone may sign in with a registered key (rate-limited like the password login, failures
 * counted towards the same lock), if one of the account's roles is allowed by the setting `webauthn_login`.
 */
export function webauthnRoutes(app: TypedApp, db: Db, options: WebauthnOptions): void {
  const rp = (request: { protocol: string; host: string; hostname: string }) => relyingParty(options.publicUrl, request);

  app.register(async (anonymous: TypedApp) => {
    await anonymous.register(rateLimit, { global: false, errorResponseBuilder: () => new AppError(429, 'error.rate_limited') });
    const rateLimited = { max: options.rateLimitPerMinute, timeWindow: 60_000 };

    // A read (it makes a challenge, as GET /auth/challenge does), so it stays out of the operation log.
    anonymous.post('/api/auth/webauthn/login/options', {
      config: { access: 'public', audit: false, rateLimit: rateLimited },
      schema: { tags, summary: 'Options for signing in with a security key (navigator.credentials.get)', response: okResponse() },
    }, async (request) => ok(await signInOptions(db, rp(request))));

    // Every outcome is in the login log (reasons webauthn_*), as for the password login.
    anonymous.post('/api/auth/webauthn/login', {
      config: { access: 'public', audit: false, rateLimit: rateLimited },
      bodyLimit: 64 * 1024,
      schema: { tags, summary: 'Signs in with a security key: the same session as the password login', body: Type.Object({ response: AuthenticationResponse }), response: okResponse() },
    }, async (request) => ok(await signInWithKey(db, rp(request), request.body.response, { ip: request.ip, userAgent: request.headers['user-agent'] }, options.tokenTtlSeconds)));
  });

  app.get('/api/auth/webauthn/credentials', {
    config: { access: 'user' },
    schema: { tags, summary: 'My security keys, and whether my roles may sign in with one', response: okResponse() },
  }, async (request) => {
    const userId = request.auth!.id;
    const [keys, allowed] = await Promise.all([credentialsOf(db, userId), userMayUseKeys(db, userId)]);
    return ok({
      allowed,
      data: keys.map((k) => ({ id: k.id, name: k.name, transports: k.transports, created_at: k.created_at, last_used_at: k.last_used_at })),
    });
  });

  app.post('/api/auth/webauthn/register/options', {
    config: { access: 'user', audit: false },
    schema: { tags, summary: 'Options for registering a security key to my account (navigator.credentials.create)', response: okResponse() },
  }, async (request) => ok(await registrationOptions(db, request.auth!.id, rp(request))));

  app.post('/api/auth/webauthn/register', {
    config: { access: 'user' },
    bodyLimit: 128 * 1024,
    schema: {
      tags, summary: 'Registers a security key to my account',
      body: Type.Object({ name: Type.String({ maxLength: SECURITY_KEY_NAME_MAX * 4 }), response: RegistrationResponse }), response: okResponse()
    },
  }, async (request) => ok(await registerKey(db, request.auth!.id, rp(request), request.body.name, request.body.response)));

  app.delete('/api/auth/webauthn/credentials/:id', {
    config: { access: 'user' },
    schema: { tags, summary: 'Deletes one of my security keys', params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), response: okResponse() },
  }, async (request) => {
    // Another user's key answers as a missing one: whether it exists is none of the caller's business.
    if (!(await deleteOwnCredential(db, request.auth!.id, request.params.id))) throw new AppError(404, 'webauthn.not_found');
    return ok(null);
  });
}
