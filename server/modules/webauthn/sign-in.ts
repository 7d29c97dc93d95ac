import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { lockedUntil, releaseAttempts, reserveAttempt } from '../auth/attempts.js';
import { loginLog, type ClientInfo } from '../auth/login.js';
import { accountState, LOGIN_LOCK_MINUTES, minutesLeft } from '../auth/lockout.js';
import { issueToken } from '../auth/tokens.js';
import { findUserById, hospitalsOf } from '../users/queries.js';
import { claimedChallenge } from './client-data.js';
import { userMayUseKeys } from './policy.js';
import { findCredential, LOGIN_PURPOSE, recordUse, spendChallenge, storeChallenge } from './queries.js';
import { PROMPT_TIMEOUT_MS } from './registration.js';
import type { RelyingParty } from './relying-party.js';

/** @simplewebauthn/server, a large package only security-key calls need: loaded by the first one, not at every process's start. */
const simpleWebAuthn = () => import('@simplewebauthn/server');

/** Options for navigator.credentials.get: no user name asked, the key says whose it is (a discoverable credential). */
export async function signInOptions(db: Db, rp: RelyingParty) {
  const { generateAuthenticationOptions } = await simpleWebAuthn();
  const options = await generateAuthenticationOptions({ rpID: rp.id, userVerification: 'required', timeout: PROMPT_TIMEOUT_MS });
  await storeChallenge(db, options.challenge, LOGIN_PURPOSE);
  return options;
}

/**
 * Passwordless sign-in with a key, decided like the password login (auth/login.ts) and logged alike: the
 * challenge is spent first (a replayed answer finds nothing); a known key's account takes a place under the
 * five-failures rule before anything is verified, so a locked account is refused (423) unchecked and failures
 * count towards the lock; a verified key gives its place back. Then the account must be usable and one of its
 * roles allowed (setting `webauthn_login`). The session is the password login's: same token, same answer.
 */
export async function signInWithKey(db: Db, rp: RelyingParty, response: AuthenticationResponseJSON, client: ClientInfo, ttlSeconds: number) {
  const now = new Date();
  const challenge = claimedChallenge(response.response.clientDataJSON);
  if (!challenge) {
    await loginLog(db, '', client, now)(null, false, 'webauthn_malformed');
    throw new AppError(422, 'webauthn.response_invalid');
  }
  if (!(await spendChallenge(db, challenge, LOGIN_PURPOSE, now))) {
    await loginLog(db, '', client, now)(null, false, 'webauthn_challenge_invalid');
    throw new AppError(400, 'webauthn.challenge_invalid');
  }
  const credential = response.id === response.rawId ? await findCredential(db, response.id) : undefined;
  const user = credential ? await findUserById(db, credential.user_id) : undefined;
  if (!credential || !user) {
    await loginLog(db, '', client, now)(null, false, 'webauthn_unknown_key');
    throw new AppError(422, 'webauthn.unknown_key');
  }
  const record = loginLog(db, user.name, client, now);

  const reservation = await reserveAttempt(db, user.id, now);
  if (!reservation) {
    await record(user.id, false, 'webauthn_login_locked');
    throw new AppError(423, 'auth.login_locked', { minutes: minutesLeft(await lockedUntil(db, user.id), now) });
  }
  const failed = async () => {
    await record(user.id, false, reservation.lockedUntil ? 'webauthn_failed_locked' : 'webauthn_failed');
    return reservation.lockedUntil ? new AppError(423, 'auth.login_locked', { minutes: LOGIN_LOCK_MINUTES }) : new AppError(422, 'webauthn.failed');
  };
  // The key names its account too (a discoverable credential); it must be the account the key was registered to.
  const handle = response.response.userHandle;
  if (handle !== undefined && handle !== credential.user_handle) throw await failed();

  const { verifyAuthenticationResponse } = await simpleWebAuthn();
  let newCounter: number;
  try {
    const verified = await verifyAuthenticationResponse({
      response, expectedChallenge: challenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true,
      credential: { id: credential.credential_id, publicKey: new Uint8Array(Buffer.from(credential.public_key, 'base64url')), counter: credential.counter, transports: credential.transports },
    });
    if (!verified.verified) throw await failed();
    newCounter = verified.authenticationInfo.newCounter;
  } catch (e) {
    if (e instanceof AppError) throw e;
    throw await failed();
  }
  if (!(await recordUse(db, credential.id, credential.counter, newCounter, now))) throw await failed();
  await releaseAttempts(db, user.id, reservation);

  const state = accountState(user, now);
  if (state !== 'ok') {
    await record(user.id, false, `webauthn_${state}`);
    throw new AppError(403, `auth.user_${state}`);
  }
  if (!(await userMayUseKeys(db, user.id))) {
    await record(user.id, false, 'webauthn_role_not_allowed');
    throw new AppError(403, 'webauthn.role_not_allowed');
  }
  const hospitals = await hospitalsOf(db, user.id);
  const token = await issueToken(db, user.id, hospitals[0]?.id ?? null, ttlSeconds);
  await record(user.id, true, 'webauthn');
  return { token_type: 'Bearer' as const, access_token: token, expires_in: ttlSeconds, user_id: user.id };
}
