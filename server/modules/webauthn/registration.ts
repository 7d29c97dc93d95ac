import { createHash } from 'node:crypto';
import type { RegistrationResponseJSON } from '@simplewebauthn/server';
import { MAX_SECURITY_KEYS, SECURITY_KEY_NAME_MAX, securityKeyName } from '../../../src/core/securityKeys.js';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { findUserById } from '../users/queries.js';
import { claimedChallenge } from './client-data.js';
import { userMayUseKeys } from './policy.js';
import { credentialsOf, insertCredential, registerPurpose, spendChallenge, storeChallenge } from './queries.js';
import type { RelyingParty } from './relying-party.js';

/** @simplewebauthn/server, a large package only security-key calls need: loaded by the first one, not at every process's start. */
const simpleWebAuthn = () => import('@simplewebauthn/server');

/** How long the browser's prompt waits for a touch. */
export const PROMPT_TIMEOUT_MS = 60_000;

/**
 * The WebAuthn user handle of an account: opaque and stable (so a second key on one authenticator replaces
 * nothing else's), without personal data, and new for a new account that happens to reuse an id.
 */
function userHandle(user: { id: number; created_at: string }) {
  return new Uint8Array(createHash('sha256').update(`dsms-webauthn-user:${user.id}:${user.created_at}`).digest());
}

/**
 * Options for navigator.credentials.create: a discoverable credential with user verification, so the key alone
 * (touch plus PIN or fingerprint) signs in without a user name. The account's keys are excluded (no double).
 */
export async function registrationOptions(db: Db, userId: number, rp: RelyingParty) {
  if (!(await userMayUseKeys(db, userId))) throw new AppError(403, 'webauthn.role_not_allowed');
  const user = await findUserById(db, userId);
  if (!user) throw new AppError(404, 'user.not_found');
  const existing = await credentialsOf(db, userId);
  if (existing.length >= MAX_SECURITY_KEYS) throw new AppError(409, 'webauthn.too_many', { max: MAX_SECURITY_KEYS });
  const { generateRegistrationOptions } = await simpleWebAuthn();
  const options = await generateRegistrationOptions({
    rpName: rp.name, rpID: rp.id, userName: user.name, userDisplayName: user.realname || user.name, userID: userHandle(user),
    timeout: PROMPT_TIMEOUT_MS, attestationType: 'none',
    excludeCredentials: existing.map((c) => ({ id: c.credential_id, transports: c.transports })),
    authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
  });
  await storeChallenge(db, options.challenge, registerPurpose(userId));
  return options;
}

/**
 * Verifies what the authenticator made and keeps its public key under the given name. Input is checked before
 * the challenge is spent (a bad name changes nothing); after that the challenge is gone whatever happens.
 */
export async function registerKey(db: Db, userId: number, rp: RelyingParty, rawName: string, response: RegistrationResponseJSON) {
  const name = securityKeyName(rawName);
  if (!name) throw new AppError(422, 'webauthn.name_invalid', { max: SECURITY_KEY_NAME_MAX }, { name: [{ key: 'webauthn.name_invalid', params: { max: SECURITY_KEY_NAME_MAX } }] });
  const challenge = claimedChallenge(response.response.clientDataJSON);
  if (!challenge) throw new AppError(422, 'webauthn.response_invalid');
  if (!(await spendChallenge(db, challenge, registerPurpose(userId)))) throw new AppError(400, 'webauthn.challenge_invalid');
  if (!(await userMayUseKeys(db, userId))) throw new AppError(403, 'webauthn.role_not_allowed');

  const { verifyRegistrationResponse } = await simpleWebAuthn();
  let verified;
  try {
    verified = await verifyRegistrationResponse({
      response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true,
    });
  } catch {
    throw new AppError(422, 'webauthn.registration_failed');
  }
  if (!verified.verified) throw new AppError(422, 'webauthn.registration_failed');
  const { credential } = verified.registrationInfo;

  if ((await credentialsOf(db, userId)).length >= MAX_SECURITY_KEYS) throw new AppError(409, 'webauthn.too_many', { max: MAX_SECURITY_KEYS });
  const user = await findUserById(db, userId);
  if (!user) throw new AppError(404, 'user.not_found');
  const id = await insertCredential(db, {
    userId, credentialId: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter,
    userHandle: Buffer.from(userHandle(user)).toString('base64url'), transports: (credential.transports ?? []).slice(0, 8), name,
  });
  if (id === null) throw new AppError(409, 'webauthn.already_registered');
  return { id, name };
}
