export const MAX_FAILED_ATTEMPTS = 5;
export const LOGIN_LOCK_MINUTES = 15;

export type AccountState = 'ok' | 'disabled' | 'locked' | 'expired' | 'login_locked';

interface AccountFields {
  status: number;
  locked: number;
  expires_at: string | null;
  login_locked_until: string | null;
}

/** Why an account may not log in now, checked before the password so a locked account leaks nothing. */
export function accountState(user: AccountFields, now: Date): AccountState {
  if (user.status !== 1) return 'disabled';
  if (user.locked === 1) return 'locked';
  if (user.expires_at && Date.parse(user.expires_at) <= now.getTime()) return 'expired';
  if (user.login_locked_until && Date.parse(user.login_locked_until) > now.getTime()) return 'login_locked';
  return 'ok';
}

/** After a wrong password: the new counter, and the lock end when the fifth failure is reached. */
export function afterFailure(failedAttempts: number, now: Date): { failed_attempts: number; login_locked_until: string | null } {
  const failed = failedAttempts + 1;
  if (failed >= MAX_FAILED_ATTEMPTS) {
    return { failed_attempts: 0, login_locked_until: new Date(now.getTime() + LOGIN_LOCK_MINUTES * 60_000).toISOString() };
  }
  return { failed_attempts: failed, login_locked_until: null };
}

export function minutesLeft(until: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(until) - now.getTime()) / 60_000));
}
