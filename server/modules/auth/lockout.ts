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

export const lockEnd = (now: Date) => new Date(now.getTime() + LOGIN_LOCK_MINUTES * 60_000).toISOString();

export function minutesLeft(until: string, now: Date): number {
  return Math.max(1, Math.ceil((Date.parse(until) - now.getTime()) / 60_000));
}
