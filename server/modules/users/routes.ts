import rateLimit from '@fastify/rate-limit';
import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { hasPermission } from '../../http/access.js';
import { ok } from '../../http/envelope.js';
import { AppError, forbidden, notFound } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { menuTreeFor } from './menu-tree.js';
import type { MenuOverride } from '../../../src/core/menuOverride.js';
import { managedScope } from '../../resources/user-scope.js';
import { login } from '../auth/login.js';
import { revokeToken } from '../auth/tokens.js';
import { savedLanguage } from './language.js';
import { clearLoginLock, findUserById, hospitalsOf, mergePermissions, rolesOf, userInScope, userLanguage } from './queries.js';
import { okResponse } from '../../http/responses.js';

const BASE = '/api/system_management/users';
const Id = Type.Object({ id: Type.Integer({ minimum: 1 }) });
/** The users resource's scope kind: an administrator reaches everyone, a sub-centre's administrator their own people. */
const MEMBERS = { scope: 'members' } as const;

export interface UserRouteOptions {
  tokenTtlSeconds: number;
  rateLimitPerMinute: number;
  /** A session that ended here (switch): its realtime connections and cached image sessions go too. */
  onSessionEnd?(tokenHash: string): void;
  /** The working hospital's changes to the menu (MenuStore). */
  menuOverride?(hospitalId: number): Promise<MenuOverride>;
}

export function userRoutes(app: TypedApp, db: Db, options: UserRouteOptions): void {
  app.get(`${BASE}/detail/:id`, { config: { access: 'user' }, schema: { tags: ['users'], params: Id, response: okResponse() } }, async (request) => {
    const { id } = request.params;
    const me = request.auth!;
    if (id !== me.id && !hasPermission(me, 'system_user')) throw forbidden('system_user');
    const user = await findUserById(db, id);
    // Another sub-centre's user is as absent as a missing one.
    if (!user || (id !== me.id && !(await userInScope(db, id, managedScope(MEMBERS, request))))) throw notFound('user.not_found');
    const [roles, hospitals] = await Promise.all([rolesOf(db, id), hospitalsOf(db, id)]);
    const current = hospitals.find((h) => h.id === me.hospitalId) ?? hospitals[0];
    return ok({
      id: user.id,
      name: user.name,
      realname: user.realname,
      email: user.email,
      phone: user.phone,
      status: user.status,
      locked: user.locked,
      expires_at: user.expires_at,
      login_locked_until: user.login_locked_until,
      hospitals: { data: hospitals },
      current_hospital_id: id === me.id ? me.hospitalId : null,
      hospital_logo: current?.logo ?? null,
      identification: roles.map((r) => r.identification),
      permission: mergePermissions(roles),
      roles: roles.map((r) => ({ id: r.id, name: r.name, en_name: r.en_name, identification: r.identification, extra: r.extra })),
      lang: id === me.id ? savedLanguage(user.extra) : null,
    });
  });

  app.get(`${BASE}/menu`, { config: { access: 'user' }, schema: { tags: ['users'], response: okResponse() } }, async (request) =>
    ok(await menuTreeFor(db, request.auth!, await options.menuOverride?.(request.auth!.hospitalId ?? 0))));

  app.get(`${BASE}/permission`, { config: { access: 'user' }, schema: { tags: ['users'], response: okResponse() } }, async (request) =>
    ok({ identification: request.auth!.identification, permission: request.auth!.permissions }));

  // Spec §7 transform_language: the user's own language, kept with the user (extra.lang) so every browser they sign
  // in from follows it; without `lang` it only answers the saved one. GET as the spec has it, and POST; declared
  // with a write method, so the operation log records the change.
  app.route({
    method: ['GET', 'POST'],
    url: `${BASE}/transform_language`,
    config: { access: 'user' },
    schema: { tags: ['users'], querystring: Type.Object({ lang: Type.Optional(Type.Union([Type.Literal('zh-CN'), Type.Literal('en-US')])) }), response: okResponse() },
    handler: async (request) => ok({ lang: await userLanguage(db, request.auth!.id, request.query.lang) }),
  });

  // Spec §7 users/switch (the change-account dialog): another account's sealed password signs that account in and
  // ends this session, as logging out and in would; a refusal leaves this session as it was.
  // Rate-limited per address like the login it performs (a signed-in user must not get an unthrottled password oracle).
  app.register(async (scope: TypedApp) => {
    await scope.register(rateLimit, { global: false, errorResponseBuilder: () => new AppError(429, 'error.rate_limited') });
    scope.post(`${BASE}/switch`, {
      config: { access: 'user', rateLimit: { max: options.rateLimitPerMinute, timeWindow: 60_000 } },
      schema: {
        tags: ['users'],
        body: Type.Object({ username: Type.String({ minLength: 1, maxLength: 64 }), password: Type.String({ minLength: 1, maxLength: 4096 }), key_id: Type.String({ minLength: 1, maxLength: 64 }) }), response: okResponse()
      },
    }, async (request) => {
      const signedIn = await login(db, request.body, { ip: request.ip, userAgent: request.headers['user-agent'] }, options.tokenTtlSeconds);
      await revokeToken(db, request.auth!.tokenHash);
      options.onSessionEnd?.(request.auth!.tokenHash);
      return ok(signedIn);
    });
  });

  app.post(`${BASE}/delLoginLock/:id`, { config: { access: { permission: 'system_user' } }, schema: { tags: ['users'], params: Id, response: okResponse() } }, async (request) => {
    const reach = await userInScope(db, request.params.id, managedScope(MEMBERS, request));
    if (!reach || !(await clearLoginLock(db, request.params.id))) throw notFound('user.not_found');
    return ok(null);
  });
}
