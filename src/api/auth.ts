import { api, unwrap } from './client';
import { sealPassword } from './seal';
import type { MenuEntry } from '../core/menuRules';
import type { PublicSettings } from '../store/settings';
import type { UserInfo } from '../store/session';

export interface LoginResult { token_type: 'Bearer'; access_token: string; expires_in: number; user_id: number }

/** Login endpoints are exempt from automatic toasts (spec §8): the login form shows the server's text itself. */
export async function login(username: string, password: string): Promise<LoginResult> {
  const sealed = await sealPassword(password);
  return unwrap(api.post('/auth/login', { username, ...sealed }, { silent: true }));
}

/**
 * Spec §7 users/switch (change account): signs the other account in and ends this session on the server, the
 * password sealed as for login. Silent like login: the dialog shows the server's text itself.
 */
export async function switchAccount(username: string, password: string): Promise<LoginResult> {
  const sealed = await sealPassword(password);
  return unwrap(api.post('/system_management/users/switch', { username, ...sealed }, { silent: true }));
}

// An empty JSON object, not null: axios would send a bodiless form post, which the server refuses (and the token lived on).
// A session from single sign-on answers where to end the provider's sign-in too (its end_session_endpoint).
export async function logout(): Promise<string | null> {
  const data = await unwrap<{ logout_url?: string } | null>(api.post('/auth/logout', {}, { silent: true }));
  const url = data?.logout_url;
  return url && /^https?:\/\//.test(url) ? url : null;
}

/** Locks this session on the server too: until the lock screen's password, it refuses every other call (423). */
export const lockSession = () => unwrap(api.post('/auth/lock', {}, { silent: true, allowMultiple: true }));

export async function verifyLockScreen(name: string, password: string): Promise<boolean> {
  const sealed = await sealPassword(password);
  return (await unwrap<{ success: boolean }>(api.post('/auth/lock_screen_verify', { name, ...sealed }))).success;
}

export const switchHospital = (hospitalId: number) => unwrap(api.post('/auth/switch_hospital', { hospital_id: hospitalId }));

export const fetchUser = (id: number) => unwrap<UserInfo>(api.get(`/system_management/users/detail/${id}`));
export const fetchMenus = () => unwrap<MenuEntry[]>(api.get('/system_management/users/menu'));
export const fetchPermission = () => unwrap<{ identification: string[]; permission: string[] }>(api.get('/system_management/users/permission'));

export const fetchCommitHash = () => unwrap<string>(api.get('/COMMITHASH', { silent: true }));
export async function fetchPublicSettings(): Promise<PublicSettings> {
  return (await unwrap<{ data: PublicSettings }>(api.get('/common/setting', { silent: true }))).data;
}

/** A hospital whose single sign-on is switched on: the login page offers "Sign in with <label>". */
export interface SsoOption { hospital_id: number; label: string; name: string; en_name: string; sso: boolean; im_kind: string | null }
export const fetchSsoOptions = () => unwrap<SsoOption[]>(api.get('/auth/sso/options', { silent: true }));

/** Spec §7 auth/auth_code: the messaging app's sign-in address for this browser (it comes back through the server). */
export const fetchAuthCodeUrl = (hospitalId: number, redirect: string) =>
  unwrap<{ url: string; expires_in: number }>(api.get('/auth/auth_code', { params: { hospital_id: hospitalId, redirect }, silent: true }));
