import { Type } from '@sinclair/typebox';
import type { Db } from '../../db/connect.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { managedScope } from '../../resources/user-scope.js';
import { deleteMemberKey, memberKeys } from './member-keys.js';
import { okResponse } from '../../http/responses.js';

const tags = ['auth'];
/** Managing other people's keys is managing users (seed permission `system_user`). */
const access = { permission: 'system_user' } as const;
/** Keys are managed as their owners are: a sub-centre's administrator reaches only users wholly within their hospitals. */
const MEMBERS = { scope: 'members' } as const;

/**
 * An administrator's view of the security keys of the users of the hospital they work in (SettingSecurityKeys):
 * list them, and remove one (a lost key) without touching anything else of its owner. A key of a user of another
 * hospital, or (to a sub-centre's administrator) of a user who also belongs to a hospital they do not manage, is left
 * out of the list and answers as a missing one: the users resource's rule (managedScope). The removal is a DELETE, so the operation log records who removed which.
 */
export function webauthnMemberRoutes(app: TypedApp, db: Db): void {
  app.get('/api/auth/webauthn/members/credentials', {
    config: { access },
    schema: { tags, summary: 'The security keys of the users of my hospital', response: okResponse() },
  }, async (request) => ok({ data: await memberKeys(db, workingHospital(request), managedScope(MEMBERS, request)) }));

  app.delete('/api/auth/webauthn/members/credentials/:id', {
    config: { access },
    schema: { tags, summary: 'Removes a security key of a user of my hospital', params: Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), response: okResponse() },
  }, async (request) => {
    const removed = await deleteMemberKey(db, workingHospital(request), managedScope(MEMBERS, request), request.params.id);
    if (!removed) throw new AppError(404, 'webauthn.not_found');
    return ok({ id: request.params.id, user_id: removed.user_id, name: removed.name });
  });
}
