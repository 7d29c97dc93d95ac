import type { Db } from '../../db/connect.js';
import { hasPermission } from '../../http/access.js';
import { roleAccessOf } from '../users/queries.js';

/**
 * Whether the user a download link names may fetch a slide of `hospitalId` now, not only when the link
 * was signed: the account exists and may log in (as sessionFromToken decides), still holds slide_download,
 * and still belongs to the slide's hospital. A signature proves who asked; this proves they still may.
 */
export async function mayDownload(db: Db, userId: number, hospitalId: number): Promise<boolean> {
  const now = new Date().toISOString();
  const user = await db.selectFrom('users').select(['status', 'locked', 'expires_at']).where('id', '=', userId).executeTakeFirst();
  if (!user || user.status !== 1 || user.locked === 1 || (user.expires_at && user.expires_at <= now)) return false;
  const [access, member] = await Promise.all([
    roleAccessOf(db, userId),
    db.selectFrom('user_hospitals').select('hospital_id').where('user_id', '=', userId).where('hospital_id', '=', hospitalId).executeTakeFirst(),
  ]);
  if (!member) return false;
  return hasPermission(access, 'slide_download');
}
