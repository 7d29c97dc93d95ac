import type { Db } from '../db/connect.js';
import { hashPassword } from '../modules/auth/passwords.js';

/** What `npm run create-admin` makes on an installation started with DSMS_DEMO=0 (docs/deploy.md). */
export interface FirstAdmin {
  hospitalCode: string;
  hospitalName: string;
  hospitalEnName?: string;
  user: string;
  realname?: string;
  password: string;
}

export const MIN_ADMIN_PASSWORD = 10;

/**
 * The first hospital and an administrator of it, in one transaction: without the demo seed an installation has
 * roles and menus but nobody to sign in as. A hospital of that code already there is joined, not made again; a user
 * of that name already there is refused (a password is changed in the app, not here).
 */
export async function createFirstAdmin(db: Db, input: FirstAdmin): Promise<{ userId: number; hospitalId: number; hospitalCreated: boolean }> {
  const user = input.user.trim();
  const code = input.hospitalCode.trim();
  if (!/^[A-Za-z0-9_-]{1,32}$/.test(code)) throw new Error('the hospital code is 1–32 letters, digits, - or _');
  if (!/^[A-Za-z0-9_.@-]{1,64}$/.test(user)) throw new Error('the user name is 1–64 letters, digits, . @ - or _');
  if (!input.hospitalName.trim() || input.hospitalName.length > 100) throw new Error('the hospital name is 1–100 characters');
  if (input.password.length < MIN_ADMIN_PASSWORD || input.password.length > 4096) throw new Error(`the password is ${MIN_ADMIN_PASSWORD}–4096 characters`);
  const passwordHash = await hashPassword(input.password);
  return db.transaction().execute(async (trx) => {
    const role = await trx.selectFrom('roles').select('id').where('identification', '=', 'admin').executeTakeFirst();
    if (!role) throw new Error('the database has no admin role: start the app once first (it migrates and seeds the roles)');
    if (await trx.selectFrom('users').select('id').where('name', '=', user).executeTakeFirst()) throw new Error(`a user named ${user} exists already`);
    const now = new Date().toISOString();
    let hospital = await trx.selectFrom('hospitals').select('id').where('code', '=', code).executeTakeFirst();
    const hospitalCreated = !hospital;
    hospital ??= await trx.insertInto('hospitals')
      .values({ code, name: input.hospitalName.trim(), en_name: input.hospitalEnName?.trim() || input.hospitalName.trim(), logo: null, created_at: now })
      .returning('id').executeTakeFirstOrThrow();
    const { id: userId } = await trx.insertInto('users').values({
      name: user, realname: input.realname?.trim() || user, password_hash: passwordHash, email: null, phone: null, status: 1, locked: 0,
      expires_at: null, failed_attempts: 0, login_locked_until: null, extra: '{}', created_at: now, updated_at: now,
    }).returning('id').executeTakeFirstOrThrow();
    await trx.insertInto('user_roles').values({ user_id: userId, role_id: role.id }).execute();
    await trx.insertInto('user_hospitals').values({ user_id: userId, hospital_id: hospital.id }).execute();
    return { userId, hospitalId: hospital.id, hospitalCreated };
  });
}
