import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { validateWrite } from '../../resources/write-validation.js';
import { openSealedFields } from '../auth/sealed-fields.js';
import { hashPassword, verifyPassword } from '../auth/passwords.js';
import { passwordHashOf, profileOf, saveProfile } from './queries.js';
import type { SchemaStore } from '../schemas/store.js';
import { okResponse } from '../../http/responses.js';

const Sealed = Type.Object({ key_id: Type.String({ maxLength: 64 }), password: Type.String({ maxLength: 4096 }) });
const PASSWORD_FIELDS = ['old_password', 'password', 'password_confirmation'] as const;

/**
 * SystemAccount: the caller's own profile and password. Passwords arrive sealed (the contract's `sealed`
 * fields); the contract of the SystemAccount page's form (the base page's: an override cannot loosen it) validates the opened values,
 * including the two-passwords-match rule, and the current password must be right to set a new one. A new
 * password ends the account's other sessions; `onSessionsEnded` lets in-process session caches drop them.
 */
export function accountRoutes(app: TypedApp, db: Db, store: SchemaStore, onSessionsEnded?: (userId: number) => void): void {
  const profile = (id: number) => profileOf(db, id);

  app.get('/api/account/profile', { config: { access: 'user' }, schema: { tags: ['account'], response: okResponse() } }, async (r) => ok(await profile(r.auth!.id)));

  app.patch('/api/account/profile', {
    config: { access: 'user' },
    schema: {
      tags: ['account'],
      body: Type.Object({
        realname: Type.Optional(Type.String()), email: Type.Optional(Type.Union([Type.String(), Type.Null()])), phone: Type.Optional(Type.Union([Type.String(), Type.Null()])),
        old_password: Type.Optional(Sealed), password: Type.Optional(Sealed), password_confirmation: Type.Optional(Sealed),
      }), response: okResponse()
    },
  }, async (r) => {
    const me = r.auth!;
    const form = store.contractFormOf('SystemAccount')!;
    const body = await openSealedFields(db, form.seal ?? [], r.body);
    const data: Record<string, unknown> = { ...(await profile(me.id)) };
    for (const key of ['realname', 'email', 'phone', ...PASSWORD_FIELDS]) if (key in body) data[key] = body[key];

    validateWrite(form, data, false, r.lang, { resolve: await store.rulesFor(me.hospitalId ?? 0) });

    const changes: Record<string, unknown> = { realname: data.realname, email: data.email ?? null, phone: data.phone ?? null, updated_at: new Date().toISOString() };
    if (data.password) {
      if (!(await verifyPassword(String(data.old_password ?? ''), await passwordHashOf(db, me.id)))) {
        throw new AppError(422, 'error.validation', {}, { old_password: [{ key: 'account.old_password_wrong' }] });
      }
      changes.password_hash = await hashPassword(String(data.password));
    }
    await saveProfile(db, me.id, changes, me.tokenHash);
    if (changes.password_hash) onSessionsEnded?.(me.id);
    return ok(await profile(me.id));
  });
}

