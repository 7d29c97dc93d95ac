import type { Db } from '../../db/connect.js';

/** The most keys the administrators' list shows at once (each account holds a few: registration.ts caps them). */
export const MEMBER_KEYS_LIMIT = 1000;

export interface MemberKey {
  id: number;
  user_id: number;
  username: string;
  realname: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

/**
 * Users of `hospitalId` whose keys an administrator working in that hospital may see and remove. `scope` is the
 * hospitals a sub-centre's administrator manages (managedScope; undefined: an administrator, everyone): then only
 * users wholly within them, belonging to no other hospital, as the users resource's 'members' scope and
 * userInScope have it. The group administrator, or a doctor who also works in the general hospital, is not theirs.
 */
const membersOf = (db: Db, hospitalId: number, scope: readonly number[] | undefined) =>
  db.selectFrom('user_hospitals').select('user_hospitals.user_id').where('user_hospitals.hospital_id', '=', hospitalId)
    .$if(scope !== undefined, (q) => q.where((eb) => eb.not(eb.exists(eb.selectFrom('user_hospitals as other').select('other.user_id')
      .whereRef('other.user_id', '=', 'user_hospitals.user_id').where('other.hospital_id', 'not in', [...scope!, 0])))));

/** The security keys of the hospital's users (within `scope`), by user name then age; never the keys' secrets or credential ids. */
export async function memberKeys(db: Db, hospitalId: number, scope: readonly number[] | undefined): Promise<MemberKey[]> {
  return db.selectFrom('webauthn_credentials').innerJoin('users', 'users.id', 'webauthn_credentials.user_id')
    .select(['webauthn_credentials.id', 'webauthn_credentials.user_id', 'users.name as username', 'users.realname', 'webauthn_credentials.name',
      'webauthn_credentials.created_at', 'webauthn_credentials.last_used_at'])
    .where('webauthn_credentials.user_id', 'in', membersOf(db, hospitalId, scope))
    .orderBy('users.name').orderBy('webauthn_credentials.id').limit(MEMBER_KEYS_LIMIT).execute();
}

/**
 * Removes one key of a user of `hospitalId` (within `scope`), and nothing else: the user's sessions and other keys
 * stay. One DELETE decides; the key it removed (for the answer), or undefined when there is none such (the 404).
 */
export async function deleteMemberKey(db: Db, hospitalId: number, scope: readonly number[] | undefined, id: number): Promise<{ user_id: number; name: string } | undefined> {
  return db.deleteFrom('webauthn_credentials').where('id', '=', id).where('user_id', 'in', membersOf(db, hospitalId, scope))
    .returning(['user_id', 'name']).executeTakeFirst();
}
