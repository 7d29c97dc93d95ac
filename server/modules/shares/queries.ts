import { randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { shareState, type SharePermissions, type ShareState } from '../../../src/core/sharePermissions.js';
import { parseSharePermissions } from '../../../src/core/sharePermissions.js';
import { hashToken } from '../auth/tokens.js';

export interface ShareRow {
  id: number;
  slide_id: number;
  hospital_id: number;
  created_by: number;
  permissions: SharePermissions;
  expires_at: string;
  revoked_at: string | null;
  created_at: string;
}

const toRow = <T extends { permissions: string }>(r: T) => ({ ...r, permissions: parseSharePermissions(r.permissions) });

/**
 * A new link: the token is returned once and kept only as its hash. `token`: one the caller derived (a consultation
 * link names its slides' share links by tokens derived from its own, consultations/queries.ts); else a random one.
 */
export async function createShare(db: Db, v: { slideId: number; hospitalId: number; userId: number; permissions: SharePermissions; seconds: number; recipientId?: number | null; token?: string }) {
  const token = v.token ?? randomBytes(24).toString('base64url');
  const now = new Date();
  const expires_at = new Date(now.getTime() + v.seconds * 1000).toISOString();
  const row = await db.insertInto('slide_shares').values({
    token_hash: hashToken(token), slide_id: v.slideId, hospital_id: v.hospitalId, created_by: v.userId,
    permissions: JSON.stringify(v.permissions), expires_at, revoked_at: null, created_at: now.toISOString(), recipient_id: v.recipientId ?? null,
  }).returning('id').executeTakeFirstOrThrow();
  return { id: row.id, token, expires_at };
}

/** The share a token opens, with its state now (not found: undefined). */
export async function shareByToken(db: Db, token: string): Promise<(ShareRow & { state: ShareState }) | undefined> {
  const row = await db.selectFrom('slide_shares')
    .select(['id', 'slide_id', 'hospital_id', 'created_by', 'permissions', 'expires_at', 'revoked_at', 'created_at'])
    .where('token_hash', '=', hashToken(token)).executeTakeFirst();
  return row && { ...toRow(row), state: shareState(row, new Date().toISOString()) };
}

/** The user's shares; shares of slides whose case is outside their directories are left out (the row scope). */
export async function sharesBy(db: Db, userId: number) {
  const rows = await db.selectFrom('slide_shares').innerJoin('slides', 'slides.id', 'slide_shares.slide_id')
    .select(['slide_shares.id', 'slide_shares.slide_id', 'slides.name as slide_name', 'slide_shares.permissions', 'slide_shares.expires_at', 'slide_shares.revoked_at', 'slide_shares.created_at'])
    .where('slide_shares.created_by', '=', userId)
    .orderBy('slide_shares.id', 'desc').limit(200).execute();
  const now = new Date().toISOString();
  return rows.map((r) => ({ ...toRow(r), state: shareState(r, now) }));
}

export const shareById = (db: Db, id: number) =>
  db.selectFrom('slide_shares').select(['id', 'created_by', 'hospital_id', 'revoked_at']).where('id', '=', id).executeTakeFirst();

/** Revokes once; a second call changes nothing. */
export async function revokeShare(db: Db, id: number): Promise<void> {
  await db.updateTable('slide_shares').set({ revoked_at: new Date().toISOString() }).where('id', '=', id).where('revoked_at', 'is', null).execute();
}

/** The subspecialty directory of the shared slide's case (null: no case, or a case filed under none). */
export async function sharedCaseDirectory(db: Db, slideId: number): Promise<number | null> {
  const row = await db.selectFrom('slides').leftJoin('cases', 'cases.id', 'slides.case_id').select('cases.subspecialty_id')
    .where('slides.id', '=', slideId).executeTakeFirst();
  return row?.subspecialty_id ?? null;
}

/** What the shared page shows of the slide, within the permissions. */
export async function sharedSlide(db: Db, slideId: number, permissions: SharePermissions) {
  const slide = await db.selectFrom('slides')
    .leftJoin('cases', 'cases.id', 'slides.case_id')
    .leftJoin('slide_sections', 'slide_sections.slide_id', 'slides.id')
    .select(['slides.id', 'slides.name', 'slides.width', 'slides.height', 'slides.levels', 'slides.mpp', 'slides.objective_power', 'slides.scan_at',
      'slides.status', 'slide_sections.stain', 'cases.pathology_number', 'cases.specimen_name', 'cases.clinical_diagnosis'])
    .where('slides.id', '=', slideId).executeTakeFirst();
  if (!slide) return undefined;
  const { pathology_number, specimen_name, clinical_diagnosis, ...rest } = slide;
  return { ...rest, diagnosis: permissions.diagnosis ? { pathology_number, specimen_name, clinical_diagnosis } : null };
}

/** The hospital and name of a slide the request already found (slides/queries.ts `slideIn`). */
export const slideOfShare = (db: Db, slideId: number) =>
  db.selectFrom('slides').select(['hospital_id', 'name']).where('id', '=', slideId).executeTakeFirstOrThrow();

/** The name a share's recipient is told it came from. */
export const sharerName = async (db: Db, userId: number): Promise<string> =>
  (await db.selectFrom('users').select('realname').where('id', '=', userId).executeTakeFirstOrThrow()).realname;
