import { sql } from 'kysely';
import type { Db } from '../../db/connect.js';
import { lockEnd, MAX_FAILED_ATTEMPTS, reservationFrom, type Reservation } from './lockout.js';

/**
 * Takes a place for one password check, in one conditional UPDATE … RETURNING (SQLite and PostgreSQL alike),
 * before the password is looked at: only while no lock is in force, and the fifth place sets the lock and empties
 * the count. However many attempts run at once, at most five passwords are checked per lock window.
 * `users.failed_attempts` counts places taken: a wrong password keeps its place. Null: the account is locked.
 */
export async function reserveAttempt(db: Db, userId: number, now: Date): Promise<Reservation | null> {
  const fifth = sql<boolean>`failed_attempts + 1 >= ${sql.lit(MAX_FAILED_ATTEMPTS)}`;
  const row = await db.updateTable('users')
    .set({
      // Both expressions read the row as it was before this UPDATE.
      failed_attempts: sql<number>`CASE WHEN ${fifth} THEN 0 ELSE failed_attempts + 1 END`,
      login_locked_until: sql<string | null>`CASE WHEN ${fifth} THEN ${lockEnd(now)} ELSE login_locked_until END`,
    })
    .where('id', '=', userId)
    .where((eb) => eb.or([eb('login_locked_until', 'is', null), eb('login_locked_until', '<=', now.toISOString())]))
    .returning(['failed_attempts', 'login_locked_until'])
    .executeTakeFirst();
  return row ? reservationFrom(row) : null;
}

/**
 * A right password gives back its place and the places taken before it (its user's own mistypes), keeping those
 * taken after it, which are still being checked. The fifth place also lifts the lock it set, if still its own.
 */
export async function releaseAttempts(db: Db, userId: number, reservation: Reservation): Promise<void> {
  if (reservation.lockedUntil) {
    await db.updateTable('users').set({ failed_attempts: 0, login_locked_until: null })
      .where('id', '=', userId).where('login_locked_until', '=', reservation.lockedUntil).execute();
    return;
  }
  const n = sql.lit(reservation.number);
  await db.updateTable('users')
    .set({ failed_attempts: sql<number>`CASE WHEN failed_attempts > ${n} THEN failed_attempts - ${n} ELSE 0 END` })
    .where('id', '=', userId).execute();
}

/** When the account's lock ends (null: not locked, or no such user). */
export async function lockedUntil(db: Db, userId: number): Promise<string | null> {
  const row = await db.selectFrom('users').select('login_locked_until').where('id', '=', userId).executeTakeFirst();
  return row?.login_locked_until ?? null;
}
