import type {
  AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON,
} from '@simplewebauthn/browser';
import { api, unwrap } from '../../api/client';

/** One of my keys as GET /api/auth/webauthn/credentials lists it. */
export interface SecurityKey { id: number; name: string; transports: string[]; created_at: string; last_used_at: string | null }
export interface MyKeys { allowed: boolean; data: SecurityKey[] }
export interface KeySession { access_token: string; user_id: number }

// silent: the callers word failures where they happen (the panel, the login page), not as a toast as well.
export const myKeys = () => unwrap<MyKeys>(api.get('/auth/webauthn/credentials', { silent: true }));
export const registrationOptions = () => unwrap<PublicKeyCredentialCreationOptionsJSON>(api.post('/auth/webauthn/register/options', {}, { silent: true }));
export const registerKey = (name: string, response: RegistrationResponseJSON) =>
  unwrap<{ id: number; name: string }>(api.post('/auth/webauthn/register', { name, response }, { silent: true }));
export const deleteKey = (id: number) => unwrap<null>(api.delete(`/auth/webauthn/credentials/${id}`, { silent: true }));
export const signInOptions = () => unwrap<PublicKeyCredentialRequestOptionsJSON>(api.post('/auth/webauthn/login/options', {}, { silent: true }));
export const signInWith = (response: AuthenticationResponseJSON) => unwrap<KeySession>(api.post('/auth/webauthn/login', { response }, { silent: true }));

/** A key of a user of my hospital, as an administrator lists them (GET /api/auth/webauthn/members/credentials). */
export interface MemberKey { id: number; user_id: number; username: string; realname: string; name: string; created_at: string; last_used_at: string | null }
export const memberKeys = () => unwrap<{ data: MemberKey[] }>(api.get('/auth/webauthn/members/credentials', { silent: true }));
export const removeMemberKey = (id: number) => unwrap<{ id: number; user_id: number; name: string }>(api.delete(`/auth/webauthn/members/credentials/${id}`, { silent: true }));
