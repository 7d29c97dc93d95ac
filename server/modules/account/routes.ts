import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { validateWrite } from '../../resources/write-validation.js';
import { openSealedPassword } from '../auth/challenge.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import type { SchemaStore } from '../schemas/store.js';

const Sealed = Type.Object({ key_id: Type.String({ maxLength: 64 }), password: Type.String({ maxLength: 4096 }) });
const PASSWORD_FIELDS = ['old_password', 'password', 'password_confirmation'] as const;

/**
 * SystemAccount: the caller's own profile and password. Passwords arrive sealed like the login's; the
 * form schema of the SystemAccount page (the hospital's layered one) validates the opened values,
 * including the two-passwords-match rule, and the current password must be right to set a new one.
 */
export function accountRoutes(app: FastifyInstance, db: Db, store: SchemaStore): void {
  const profile = (id: number) => db.selectFrom('users').select(['id', 'name', 'realname', 'email', 'phone']).where('id', '=', id).executeTakeFirstOrThrow();

  app.get('/api/account/profile', { config: { access: 'user' }, schema: { tags: ['account'] } }, async (r) => ok(await profile(r.auth!.id)));

  app.patch('/api/account/profile', {
    config: { access: 'user' },
    schema: {
      tags: ['account'],
      body: Type.Object({
        realname: Type.Optional(Type.String()), email: Type.Optional(Type.Union([Type.String(), Type.Null()])), phone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        old_password: Type.Optional(Sealed), password: Type.Optional(Sealed), password_confirmation: Type.Optional(Sealed),
      }),
    },
  }, async (r) => {
    const body = r.body as Record<string, unknown>;
    const me = r.auth!;
    const data: Record<string, unknown> = { ...(await profile(me.id)) };
    for (const key of ['realname', 'email', 'phone']) if (key in body) data[key] = body[key];
    for (const key of PASSWORD_FIELDS) if (body[key]) data[key] = await open(db, body[key] as { key_id: string; password: string });

    validateWrite((await store.layered('SystemAccount', me.hospitalId ?? 0)).schema, data, false, r.lang);

    const changes: Record<string, unknown> = { realname: data.realname, email: data.email ?? null, phone: data.phone ?? null, updated_at: new Date().toISOString() };
    if (data.password) {
      const { password_hash } = await db.selectFrom('users').select('password_hash').where('id', '=', me.id).executeTakeFirstOrThrow();
      if (!(await verifyPassword(String(data.old_password ?? ''), password_hash))) {
        throw new AppError(422, 'error.validation', {}, { old_password: [{ key: 'account.old_password_wrong' }] });
      }
      changes.password_hash = await hashPassword(String(data.password));
    }
    await db.updateTable('users').set(changes).where('id', '=', me.id).execute();
    return ok(await profile(me.id));
  });
}

async function open(db: Db, sealed: { key_id: string; password: string }): Promise<string> {
  const opened = await openSealedPassword(db, sealed.key_id, sealed.password);
  if (!opened.ok) throw new AppError(400, opened.reason === 'undecryptable' ? 'auth.password_undecryptable' : 'auth.challenge_invalid');
  return opened.password;
}
