import rateLimit from '@fastify/rate-limit';
import { Type } from '@sinclair/typebox';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { appPath } from '../../../src/core/appPath.js';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { revokeToken, hashToken, issueToken } from '../auth/tokens.js';
import { loadSsoConfig, saveSsoConfig, viewOf, MESSAGING_KINDS, MESSAGING_USER_FIELDS } from './config.js';
import type { SecretBox } from '../../security/sealed-secrets.js';
import { createFlow, issueOneTimeCode, takeFlow, takeOneTimeCode, FLOW_TTL_MS } from './flows.js';
import { ADAPTERS, type MessagingAdapter } from './messaging.js';
import type { SsoConfigTable } from '../../db/schema.js';
import { authorizationUrl, finishSignIn, newCodeVerifier } from './oidc.js';
import { loginChoices, messagingHospitals } from './queries.js';
import { rememberProviderSession } from './sign-out.js';
import { userForIdentity } from './users.js';
import { MAX_ID } from '../../http/hostile-input.js';
import { okResponse, redirectResponse } from '../../http/responses.js';

export interface SsoOptions {
  tokenTtlSeconds: number;
  rateLimitPerMinute: number;
  /** Where users reach the app (PUBLIC_URL): the provider sends them back to its callback there, never to a request's Host. */
  publicUrl: string;
  /** The app's key: the client and messaging-app secrets are stored sealed with it, opened only to be sent. */
  secrets: SecretBox;
}

/** Why a sign-in came back to the login page; the page words it (login.sso.errors.*) in the user's language. */
type Failure = 'not_configured' | 'state' | 'denied' | 'rejected' | 'unknown_user' | 'not_allowed' | 'unreachable';

const FLOW_COOKIE = 'dsms_sso';
const FLOW_COOKIE_PATH = '/api/auth/sso';
/** The messaging app's sign-in started from auth/auth_code: its state, bound to this browser like the OIDC one. */
const IM_COOKIE = 'dsms_im';
const IM_COOKIE_PATH = '/api/auth/im';
const BEARER = /^Bearer\s+(\S{1,512})$/i;
const OneTime = Type.String({ minLength: 16, maxLength: 128, pattern: '^[A-Za-z0-9_-]+$' });

function cookieValue(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie ?? '';
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return v.join('=');
  }
  return undefined;
}

/** The failure a refused sign-in is shown as; anything unexpected is the provider's refusal. */
function failureOf(error: unknown): Failure {
  if (error instanceof AppError) {
    if (error.key === 'sso.unknown_user' || error.key === 'sso.claim_missing') return 'unknown_user';
    if (error.key === 'sso.provider_unreachable') return 'unreachable';
    if (error.key.startsWith('auth.')) return 'not_allowed';
  }
  return 'rejected';
}

/**
 * Single sign-on (OpenID Connect, code + PKCE) and messaging-app login per hospital (issue 17, spec §4, §7). The
 * provider's answer becomes a one-time code in the address bar; the browser's route guard trades it at sso_login_v2
 * for a session issued the way the password login issues one.
 */
export function ssoRoutes(app: TypedApp, db: Db, options: SsoOptions): void {
  const redirectUri = new URL('/api/auth/sso/callback', options.publicUrl).href;
  const secureCookie = options.publicUrl.startsWith('https:');
  const client = (request: FastifyRequest) => ({ ip: request.ip, userAgent: request.headers['user-agent'] });
  const session = async (userId: number, hospitalId: number) => ({
    token_type: 'Bearer' as const, access_token: await issueToken(db, userId, hospitalId, options.tokenTtlSeconds), expires_in: options.tokenTtlSeconds, user_id: userId,
  });
  const flowCookie = (value: string | null) =>
    `${FLOW_COOKIE}=${value ?? ''}; Path=${FLOW_COOKIE_PATH}; HttpOnly; SameSite=Lax${secureCookie ? '; Secure' : ''}; Max-Age=${value ? FLOW_TTL_MS / 1000 : 0}`;
  const imRedirectUri = new URL('/api/auth/im/callback', options.publicUrl).href;
  const imCookie = (value: string | null) =>
    `${IM_COOKIE}=${value ?? ''}; Path=${IM_COOKIE_PATH}; HttpOnly; SameSite=Lax${secureCookie ? '; Secure' : ''}; Max-Age=${value ? FLOW_TTL_MS / 1000 : 0}`;
  /** The user the messaging app says the code belongs to, matched by mobile or e-mail; unknown users are refused, never created. */
  const messagingUser = async (request: FastifyRequest, config: SsoConfigTable, adapter: MessagingAdapter, code: string) => {
    // The app's secret is opened here, for the one exchange that sends it (it is stored sealed).
    const identity = await adapter.identify({ ...config, im_app_secret: options.secrets.open(config.im_app_secret) }, code);
    const field = config.im_user_field === 'email' ? 'email' : 'phone';
    const value = config.im_user_field === 'email' ? identity.email : identity.mobile;
    return userForIdentity(db, { hospitalId: config.hospital_id, match: field, value: value ?? '', via: 'im', realname: identity.name },
      { allowed: false, roleId: null }, client(request));
  };
  const backToLogin = (reply: FastifyReply, failure: Failure, redirect = '/manage') =>
    reply.header('set-cookie', flowCookie(null)).redirect(`/login?sso_error=${failure}&redirect=${encodeURIComponent(redirect)}`, 302);
  const imBackToLogin = (reply: FastifyReply, failure: Failure, redirect = '/manage') =>
    reply.header('set-cookie', imCookie(null)).redirect(`/login?sso_error=${failure}&redirect=${encodeURIComponent(redirect)}`, 302);

  app.register(async (anonymous: TypedApp) => {
    await anonymous.register(rateLimit, { global: false, errorResponseBuilder: () => new AppError(429, 'error.rate_limited') });
    const rateLimited = { max: options.rateLimitPerMinute, timeWindow: 60_000 };

    // The login page's "Sign in with …" buttons: only what a stranger may know (a label, a hospital).
    anonymous.get('/api/auth/sso/options', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: { tags: ['auth'], summary: 'Hospitals whose single sign-on or messaging-app login is switched on, with the button label', response: okResponse() },
    }, async () => {
      const rows = await loginChoices(db);
      // `sso`: the provider button; `im_kind`: the messaging app's button (auth/auth_code), when switched on.
      return ok(rows.map(({ enabled, im_enabled, im_kind, ...row }) => ({ ...row, sso: enabled === 1, im_kind: im_enabled === 1 ? im_kind : null })));
    });

    anonymous.get('/api/auth/sso/start', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: {
        tags: ['auth'], summary: 'Sends the browser to the hospital’s OpenID Connect provider (state, nonce and PKCE kept here)',
        // `hospital` is an id by its meaning, not its name: bounded here as hostile-input.ts bounds the ones named so.
        querystring: Type.Object({ hospital: Type.Integer({ minimum: 1, maximum: MAX_ID }), redirect: Type.Optional(Type.String({ maxLength: 500 })) }), response: redirectResponse(302, "To the provider's sign-in page, or back to /login with sso_error")
      },
    }, async (request, reply) => {
      const redirect = appPath(request.query.redirect);
      const config = await loadSsoConfig(db, request.query.hospital);
      if (!config.enabled || !config.issuer || !config.client_id) return backToLogin(reply, 'not_configured', redirect);
      const flow = await createFlow(db, { hospital_id: config.hospital_id, code_verifier: newCodeVerifier(), redirect });
      try {
        const target = await authorizationUrl(config, options.secrets, redirectUri, flow);
        return reply.header('set-cookie', flowCookie(flow.state)).redirect(target, 302);
      } catch (error) {
        await takeFlow(db, flow.state);
        request.log.warn({ err: error, hospital: config.hospital_id }, 'single sign-on: provider unreachable');
        return backToLogin(reply, 'unreachable', redirect);
      }
    });

    anonymous.get('/api/auth/sso/callback', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: {
        tags: ['auth'], summary: 'Where the provider sends the browser back: checks state, nonce and id token, then hands over a one-time code',
        querystring: Type.Object({ state: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: true }), response: redirectResponse(302, 'Into the app with a one-time sign-in code, or back to /login with sso_error')
      },
    }, async (request, reply) => {
      const state = request.query.state ?? '';
      // The state must be the one this browser was sent off with (its cookie), so nobody can slip their own
      // sign-in into someone else's browser; and it is spent here, so a replayed callback finds nothing.
      const flow = state && state === cookieValue(request, FLOW_COOKIE) ? await takeFlow(db, state) : null;
      if (!flow) return backToLogin(reply, 'state');
      const query = new URL(request.url, 'http://callback.invalid').searchParams;
      if (query.has('error')) return backToLogin(reply, 'denied', flow.redirect);
      const config = await loadSsoConfig(db, flow.hospital_id);
      if (!config.enabled) return backToLogin(reply, 'not_configured', flow.redirect);
      try {
        const callbackUrl = new URL(redirectUri);
        callbackUrl.search = query.toString();
        const { claims, idToken } = await finishSignIn(config, options.secrets, callbackUrl, flow);
        const value = claims[config.user_claim];
        const userId = await userForIdentity(db, {
          hospitalId: flow.hospital_id, match: 'name', value: typeof value === 'string' ? value : '', via: 'sso',
          realname: typeof claims.name === 'string' ? claims.name : undefined,
        }, { allowed: config.create_unknown === 1, roleId: config.default_role_id }, client(request));
        const { code } = await issueOneTimeCode(db, userId, flow.hospital_id, idToken);
        return reply.header('set-cookie', flowCookie(null)).redirect(`/?stoken=${code}&redirect=${encodeURIComponent(flow.redirect)}`, 302);
      } catch (error) {
        if (!(error instanceof AppError)) request.log.warn({ err: error, hospital: flow.hospital_id }, 'single sign-on refused');
        return backToLogin(reply, failureOf(error), flow.redirect);
      }
    });

    // Spec §4: after single sign-on v2 the browser clears its session storage and keeps this answer as its session;
    // the server likewise ends the session the browser still held, if it sent one.
    anonymous.post('/api/auth/sso_login_v2', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: { tags: ['auth'], body: Type.Object({ sso_token: OneTime }), response: okResponse() },
    }, async (request) => {
      const held = BEARER.exec(request.headers.authorization ?? '')?.[1];
      const spent = await takeOneTimeCode(db, request.body.sso_token);
      if (!spent) throw new AppError(401, 'sso.code_invalid');
      if (held) await revokeToken(db, hashToken(held));
      const answer = await session(spent.user_id, spent.hospital_id);
      if (spent.id_token) await rememberProviderSession(db, hashToken(answer.access_token), spent.hospital_id, spent.id_token, options.tokenTtlSeconds);
      return ok(answer);
    });

    // Spec §4: a DD_TOKEN cookie (a one-time code from sso_token, kept by another tab or app of this site) signs in.
    anonymous.post('/api/auth/sso_login', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: { tags: ['auth'], response: okResponse() },
    }, async (request, reply) => {
      const code = cookieValue(request, 'DD_TOKEN');
      reply.header('set-cookie', 'DD_TOKEN=; Path=/; Max-Age=0; SameSite=Lax');
      const spent = code && /^[A-Za-z0-9_-]{16,128}$/.test(code) ? await takeOneTimeCode(db, code) : null;
      if (!spent) throw new AppError(401, 'sso.code_invalid');
      return ok(await session(spent.user_id, spent.hospital_id));
    });

    // Spec §4, §7: `?code=` from the hospital's enterprise messaging app; dingding_login is the same call by its older name.
    const messagingLogin = async (request: FastifyRequest<{ Body: { code: string; hospital_id?: number } }>) => {
      const hospitalId = request.body.hospital_id ?? await onlyMessagingHospital(db);
      const config = hospitalId ? await loadSsoConfig(db, hospitalId) : null;
      const adapter = config ? ADAPTERS[config.im_kind] : undefined;
      if (!config?.im_enabled || !adapter) throw new AppError(404, 'sso.not_configured');
      return ok(await session(await messagingUser(request, config, adapter, request.body.code), config.hospital_id));
    };
    // Spec §7 auth/auth_code: where the login page sends the browser to get an auth code from the hospital's messaging
    // app (its OAuth sign-in page). The app comes back to im/callback, which trades the code like ulogin does and
    // hands the browser a one-time code, as single sign-on does; the state is single-use and bound to this browser.
    anonymous.get('/api/auth/auth_code', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: {
        tags: ['auth'], summary: 'The messaging app’s sign-in address for this browser (state kept here and in a cookie)',
        querystring: Type.Object({ hospital_id: Type.Optional(Type.Integer({ minimum: 1 })), redirect: Type.Optional(Type.String({ maxLength: 500 })) }), response: okResponse()
      },
    }, async (request, reply) => {
      const hospitalId = request.query.hospital_id ?? await onlyMessagingHospital(db);
      const config = hospitalId ? await loadSsoConfig(db, hospitalId) : null;
      const adapter = config ? ADAPTERS[config.im_kind] : undefined;
      if (!config?.im_enabled || !adapter) throw new AppError(404, 'sso.not_configured');
      const flow = await createFlow(db, { hospital_id: config.hospital_id, code_verifier: newCodeVerifier(), redirect: appPath(request.query.redirect) });
      reply.header('set-cookie', imCookie(flow.state));
      return ok({ url: adapter.authorizeUrl(config, imRedirectUri, flow.state), expires_in: FLOW_TTL_MS / 1000 });
    });

    anonymous.get('/api/auth/im/callback', {
      config: { access: 'public', rateLimit: rateLimited },
      schema: {
        tags: ['auth'], summary: 'Where the messaging app sends the browser back with its auth code: traded for the user, then a one-time code',
        querystring: Type.Object({
          state: Type.Optional(Type.String({ maxLength: 200 })), authCode: Type.Optional(Type.String({ maxLength: 512 })), code: Type.Optional(Type.String({ maxLength: 512 })),
        }, { additionalProperties: true }), response: redirectResponse(302, 'Into the app with a one-time sign-in code, or back to /login with sso_error')
      },
    }, async (request, reply) => {
      const state = request.query.state ?? '';
      const flow = state && state === cookieValue(request, IM_COOKIE) ? await takeFlow(db, state) : null;
      if (!flow) return imBackToLogin(reply, 'state');
      const code = request.query.authCode ?? request.query.code;
      if (!code) return imBackToLogin(reply, 'denied', flow.redirect);
      const config = await loadSsoConfig(db, flow.hospital_id);
      const adapter = ADAPTERS[config.im_kind];
      if (!config.im_enabled || !adapter) return imBackToLogin(reply, 'not_configured', flow.redirect);
      try {
        const userId = await messagingUser(request, config, adapter, code);
        const { code: oneTime } = await issueOneTimeCode(db, userId, config.hospital_id);
        return reply.header('set-cookie', imCookie(null)).redirect(`/?stoken=${oneTime}&redirect=${encodeURIComponent(flow.redirect)}`, 302);
      } catch (error) {
        if (!(error instanceof AppError)) request.log.warn({ err: error, hospital: flow.hospital_id }, 'messaging-app sign-in refused');
        return imBackToLogin(reply, failureOf(error), flow.redirect);
      }
    });

    const messagingBody = Type.Object({ code: Type.String({ minLength: 1, maxLength: 512 }), hospital_id: Type.Optional(Type.Integer({ minimum: 1 })) });
    for (const url of ['/api/auth/ulogin', '/api/auth/dingding_login']) {
      anonymous.post(url, { config: { access: 'public', rateLimit: rateLimited }, schema: { tags: ['auth'], body: messagingBody, response: okResponse() } }, messagingLogin);
    }
  });

  // Spec §7: a one-time code for the signed-in user, e.g. for the DD_TOKEN cookie another tab or app signs in with.
  app.get('/api/auth/sso_token', {
    config: { access: 'user' },
    schema: { tags: ['auth'], summary: 'A single-use, short-lived code that signs in as this user once (sso_login_v2 or the DD_TOKEN cookie)', response: okResponse() },
  }, async (request) => {
    const hospitalId = request.auth!.hospitalId;
    if (hospitalId === null) throw new AppError(403, 'auth.hospital_not_allowed');
    const { code, expiresIn } = await issueOneTimeCode(db, request.auth!.id, hospitalId);
    return ok({ sso_token: code, expire_in: expiresIn });
  });

  const hospitalOf = (request: FastifyRequest, asked: number | undefined) => {
    const hospitalId = asked ?? request.auth!.hospitalId;
    if (hospitalId === null || !request.auth!.hospitalIds.includes(hospitalId)) throw new AppError(403, 'auth.hospital_not_allowed');
    return hospitalId;
  };

  app.get('/api/config/sso', {
    config: { access: { permission: 'system_setting' } },
    schema: { tags: ['settings'], querystring: Type.Object({ hospital_id: Type.Optional(Type.Integer({ minimum: 1 })) }), response: okResponse() },
  }, async (request) => ok(viewOf(await loadSsoConfig(db, hospitalOf(request, request.query.hospital_id)))));

  const Url = Type.String({ maxLength: 500 });
  const Secret = Type.String({ maxLength: 4096 });
  app.post('/api/config/sso', {
    config: { access: { permission: 'system_setting' } },
    schema: {
      tags: ['settings'],
      body: Type.Object({
        hospital_id: Type.Optional(Type.Integer({ minimum: 1 })),
        enabled: Type.Optional(Type.Boolean()),
        label: Type.Optional(Type.String({ maxLength: 64 })),
        issuer: Type.Optional(Url),
        client_id: Type.Optional(Type.String({ maxLength: 200 })),
        client_secret: Type.Optional(Secret),
        user_claim: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_:.-]+$' })),
        create_unknown: Type.Optional(Type.Boolean()),
        default_role_id: Type.Optional(Type.Union([Type.Integer({ minimum: 1 }), Type.Null()])),
        im_enabled: Type.Optional(Type.Boolean()),
        im_kind: Type.Optional(Type.Union(MESSAGING_KINDS.map((k) => Type.Literal(k)))),
        im_base_url: Type.Optional(Url),
        im_app_key: Type.Optional(Type.String({ maxLength: 200 })),
        im_app_secret: Type.Optional(Secret),
        im_user_field: Type.Optional(Type.Union(MESSAGING_USER_FIELDS.map((k) => Type.Literal(k)))),
        im_authorize_url: Type.Optional(Url),
      }, { additionalProperties: false }), response: okResponse()
    },
  }, async (request) => {
    const { hospital_id, ...input } = request.body;
    return ok(viewOf(await saveSsoConfig(db, hospitalOf(request, hospital_id), input, options.secrets)));
  });
}

/** Without a hospital in the request, the messaging login is the one hospital that has it switched on, if only one does. */
async function onlyMessagingHospital(db: Db): Promise<number | null> {
  const hospitals = await messagingHospitals(db);
  return hospitals.length === 1 ? hospitals[0] : null;
}
