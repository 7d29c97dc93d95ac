import { startAuthentication, startRegistration, WebAuthnError } from '@simplewebauthn/browser';
import i18n from '../../i18n';
import { displayText } from '../../api/client';
import { registerKey, registrationOptions, signInOptions, signInWith, type KeySession } from './api';
import './words';

/**
 * The two WebAuthn ceremonies, with @simplewebauthn/browser. This module is a chunk of its own: the login page
 * loads it only when "Sign in with a security key" is pressed (the shell's code budget has no room for it).
 */

/** Words for what went wrong: the browser's prompt (cancelled, timed out, unsupported) or the server's answer. */
export function ceremonyError(e: unknown): string {
  if (e instanceof WebAuthnError) {
    if (e.code === 'ERROR_CEREMONY_ABORTED' || e.name === 'NotAllowedError') return i18n.t('securityKey.cancelled');
    if (e.code === 'ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED') return i18n.t('securityKey.alreadyRegistered');
    return i18n.t('securityKey.browserRefused', { reason: e.message });
  }
  if (e instanceof Error && e.name === 'NotAllowedError') return i18n.t('securityKey.cancelled');
  if (e instanceof Error && /WebAuthn is not supported/i.test(e.message)) return i18n.t('securityKey.unsupported');
  return displayText(e, i18n.t('securityKey.failed'));
}

/** Asks the key to sign in: the server picks the account by the key (no user name asked). */
export async function signInWithSecurityKey(): Promise<KeySession> {
  const optionsJSON = await signInOptions();
  const response = await startAuthentication({ optionsJSON });
  return signInWith(response);
}

/** Makes a credential on a key and registers it to the signed-in account under `name`. */
export async function registerSecurityKey(name: string): Promise<void> {
  const optionsJSON = await registrationOptions();
  const response = await startRegistration({ optionsJSON });
  await registerKey(name, response);
}
