import { hasPermission } from '../../http/access.js';
import type { SessionUser } from '../../http/types.js';

/**
 * Who an upload belongs to: the user who sent it, in the hospital they were working in. Both are part of the
 * upload id (`h<hospital>u<user>-<hash of the file>`), so two users sending the same file never share an
 * upload, and bind reads the owner from the path it is given without any state beside the file.
 */
export interface UploadOwner {
  userId: number;
  hospitalId: number;
}

/** Binds any finished upload of the hospital one works in, not only one's own (admins, technicians). */
export const BIND_ANY_PERMISSION = 'upload_bind_any';

export const ownerPrefix = (owner: UploadOwner) => `h${owner.hospitalId}u${owner.userId}-`;

const OWNED_ID = /^h(\d{1,10})u(\d{1,10})-[0-9a-f]{32}$/;

/** The owner an upload id names; null for a folder of no upload of this release (placed by hand, or older). */
export function ownerOfUpload(id: string): UploadOwner | null {
  const m = OWNED_ID.exec(id);
  return m ? { hospitalId: Number(m[1]), userId: Number(m[2]) } : null;
}

/**
 * Whether `user`, working in `hospitalId`, may bind the finished upload `id` (the first folder under
 * uploads/complete/). Their own upload of that hospital; with upload_bind_any, any upload of that hospital,
 * and files without an owner (left by an older release or put there by an operator), which only such a
 * trusted role should turn into slides.
 */
export function mayBindUpload(user: Pick<SessionUser, 'id' | 'identification' | 'permissions'>, hospitalId: number, id: string): boolean {
  const owner = ownerOfUpload(id);
  const any = hasPermission(user, BIND_ANY_PERMISSION);
  if (!owner) return any;
  return owner.hospitalId === hospitalId && (owner.userId === user.id || any);
}
