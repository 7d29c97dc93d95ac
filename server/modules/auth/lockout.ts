export const MAX_FAILED_ATTEMPTS = 5;
export const LOGIN_LOCK_MINUTES = 15;

export type AccountState = 'ok' | 'disabled' | 'locked' | 'expired';

interface AccountFields {
  status: number;
  locked: number;
  expires_at: string | null;
}

/**
 * Why an account may not log in even with the right password. Told only to a caller who gave that password:
 * anyone else hears "wrong user name or password", as for an account that does not exist.
 */
export function accountState(user: AccountFields, now: Date): AccountState {
  if (user.status !== 1) return 'disabled';
  if (user.locked === 1) return 'locked';
  if (user.expires_at && Date.parse(user.expires_at) <= now.getTime()) return 'expired';
  return 'ok';
}

export const lockEnd = (now: Date) => new Date(now.getTime() + LOGIN_LOCK_MINUTES * 60_000).toISOString();

export function minutesLeft(until: string | null, now: Date): number {
  const left = until ? Date.parse(until) - now.getTime() : 0;
  // A request that started just before the lock was set sees a few ms more than the lock's length.
  return Math.min(LOGIN_LOCK_MINUTES, Math.max(1, Math.ceil(left / 60_000)));
}

/**
 * A password check the account has room for. `number` is its place in the lock window (1…5); the fifth
 * reservation locked the account as it was taken (`lockedUntil`), so nothing is checked after it until the
 * lock ends, and no crash between reserving and checking can leave the window full without a lock in force.
 */
export interface Reservation { number: number; lockedUntil: string | null }

/** What the reserving UPDATE returned: the count after it (0 when it took the fifth place and locked). */
export function reservationFrom(row: { failed_attempts: number; login_locked_until: string | null }): Reservation {
  return row.failed_attempts === 0
    ? { number: MAX_FAILED_ATTEMPTS, lockedUntil: row.login_locked_until }
    : { number: row.failed_attempts, lockedUntil: null };
}

