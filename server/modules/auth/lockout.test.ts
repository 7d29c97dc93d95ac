import { describe, expect, it } from 'vitest';
import { accountState, MAX_FAILED_ATTEMPTS, minutesLeft, reservationFrom } from './lockout.js';

const now = new Date('2026-03-01T08:00:00.000Z');
const ok = { status: 1, locked: 0, expires_at: null };

describe('accountState', () => {
  it('tells disabled, locked by an administrator and expired apart, in that order', () => {
    expect(accountState(ok, now)).toBe('ok');
    expect(accountState({ ...ok, status: 0, locked: 1 }, now)).toBe('disabled');
    expect(accountState({ ...ok, locked: 1 }, now)).toBe('locked');
    expect(accountState({ ...ok, expires_at: '2026-03-01T08:00:00.000Z' }, now)).toBe('expired');
    expect(accountState({ ...ok, expires_at: '2026-03-01T08:00:01.000Z' }, now)).toBe('ok');
  });
});

describe('minutesLeft', () => {
  it('rounds up and never says less than one minute', () => {
    expect(minutesLeft('2026-03-01T08:14:00.001Z', now)).toBe(15);
    expect(minutesLeft('2026-03-01T08:00:10.000Z', now)).toBe(1);
    expect(minutesLeft('2026-03-01T07:00:00.000Z', now)).toBe(1);
    expect(minutesLeft(null, now)).toBe(1);
  });
  it('never says more than the lock lasts (a request that began just before the lock was set)', () => {
    expect(minutesLeft('2026-03-01T08:15:00.020Z', now)).toBe(15);
  });
});

describe('reservationFrom', () => {
  it('reads places one to four from the count, and the fifth from the emptied count with its lock', () => {
    for (let n = 1; n < MAX_FAILED_ATTEMPTS; n++) {
      expect(reservationFrom({ failed_attempts: n, login_locked_until: null })).toEqual({ number: n, lockedUntil: null });
    }
    // A lock that ended earlier is still in the row; only the fifth place carries one.
    expect(reservationFrom({ failed_attempts: 2, login_locked_until: '2026-03-01T07:00:00.000Z' })).toEqual({ number: 2, lockedUntil: null });
    expect(reservationFrom({ failed_attempts: 0, login_locked_until: '2026-03-01T08:15:00.000Z' }))
      .toEqual({ number: MAX_FAILED_ATTEMPTS, lockedUntil: '2026-03-01T08:15:00.000Z' });
  });
});
