import { AppError } from './errors.js';
import type { SessionUser } from './types.js';

type Opening = true | ((params: Record<string, unknown>, session: SessionUser) => boolean);

/**
 * Everything a session may still call while its screen is locked (issue 8 item 7), by method and route: unlocking,
 * logging out and what the browser needs to draw the lock screen after a reload (public settings, its own user, its
 * menu and permissions). No patient data is among them; every other route, public image routes included, answers 423.
 */
const OPEN_WHILE_SCREEN_LOCKED: Record<string, Opening> = {
  'GET /api/auth/challenge': true,
  'POST /api/auth/login': true,
  'POST /api/auth/lock': true,
  'POST /api/auth/lock_screen_verify': true,
  'POST /api/auth/logout': true,
  'GET /api/COMMITHASH': true,
  'GET /api/common/setting': true,
  'GET /api/system_management/users/menu': true,
  'GET /api/system_management/users/permission': true,
  'GET /api/system_management/users/detail/:id': (params, session) => Number(params.id) === session.id,
};

export interface RouteCall {
  method: string;
  /** The route's pattern (`request.routeOptions.url`); undefined when no route matched. */
  url: string | undefined;
  params: unknown;
}

/** Whether this call may go on for this session as far as the screen lock goes. */
export function openWhileScreenLocked(call: RouteCall, session: SessionUser): boolean {
  if (!session.screenLocked) return true;
  // Outside the API (the site's files) and unmatched addresses (404) have nothing to hide.
  if (!call.url?.startsWith('/api')) return true;
  const opening = OPEN_WHILE_SCREEN_LOCKED[`${call.method} ${call.url}`];
  if (opening === undefined) return false;
  return opening === true || opening((call.params ?? {}) as Record<string, unknown>, session);
}

export const screenLocked = () => new AppError(423, 'auth.screen_locked');
