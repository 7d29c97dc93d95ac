import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance, RawReplyDefaultExpression, RawRequestDefaultExpression, RawServerDefault } from 'fastify';
import type { Language } from '../i18n/translate.js';

/**
 * The app as route modules get it: with the TypeBox type provider, so a handler's request.body, params and
 * query take their types from the route's schema (no casts).
 */
export type TypedApp = FastifyInstance<RawServerDefault, RawRequestDefaultExpression, RawReplyDefaultExpression, FastifyBaseLogger, TypeBoxTypeProvider>;

/** Who may call a route. Every /api route must say one of these; the app refuses to start otherwise. */
/** `permission` a list: any one of them lets the caller in (a report's PDF: case_view, or the clinical side's code). */
export type Access = 'public' | 'user' | { permission: string | readonly string[] };

export interface SessionUser {
  id: number;
  name: string;
  realname: string;
  identification: string[];
  /** The names of the user's roles: a role named like administrator makes an administrator (spec §6, src/core/admin.ts). */
  roleNames?: string[];
  permissions: string[];
  hospitalIds: number[];
  /** The subspecialty directories the user may work in (spec §6); empty or absent: all (src/core/subspecialty.ts). */
  subspecialtyIds?: number[];
  /** The hospital chosen for this session (HB), null when the user has none. */
  hospitalId: number | null;
  tokenHash: string;
  /** The session's screen is locked (POST /api/auth/lock): the guard refuses all but unlocking and logging out. */
  screenLocked?: boolean;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    /** false: a POST that only reads (long list filters) stays out of the operation log. */
    audit?: boolean;
    /** true: the guard may take the session from its short-lived cache (read-only hot paths: tiles). */
    cachedSession?: boolean;
  }
  interface FastifyRequest {
    lang: Language;
    auth: SessionUser | null;
  }
}
