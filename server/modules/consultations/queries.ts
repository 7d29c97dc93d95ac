import { createHmac, randomBytes } from 'node:crypto';
import type { Db } from '../../db/connect.js';
import { hashToken } from '../auth/tokens.js';
import { createShare } from '../shares/queries.js';

/** A consultation of the hospital, read through the request's scoped handle (its directories hold too). */
export const consultationIn = (db: Db, id: number, hospitalId: number) =>
  db.selectFrom('consultations').select(['id', 'case_id', 'hospital_id', 'mode', 'status', 'share_ids'])
    .where('id', '=', id).where('hospital_id', '=', hospitalId).executeTakeFirst();

/** What the remote expert's link opens: the consultation row, unscoped (the token is the grant). */
export const consultationByToken = (db: Db, token: string) =>
  db.selectFrom('consultations').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();

/**
 * The share link token of one slide of a consultation, derived from the consultation's token: the expert's page names
 * the slides' share links without the server keeping any readable token (share links keep only hashes too).
 */
export const slideShareToken = (consultationToken: string, slideId: number) =>
  createHmac('sha256', consultationToken).update(`slide:${slideId}`).digest('base64url').slice(0, 43);

const shareIdsOf = (text: string | null): number[] => {
  try {
    const v = JSON.parse(text ?? '[]');
    return Array.isArray(v) ? v.filter((x): x is number => Number.isInteger(x)) : [];
  } catch {
    return [];
  }
};

/** Ends the share links a consultation's link opened (re-issued, answered once, withdrawn). */
export async function closeShares(db: Db, shareIds: string | null): Promise<void> {
  const ids = shareIdsOf(shareIds);
  if (ids.length) await db.updateTable('slide_shares').set({ revoked_at: new Date().toISOString() }).where('id', 'in', ids).where('revoked_at', 'is', null).execute();
}

/**
 * A new consultation link for a remote consultation: a fresh token (the old link and its slides' share links end), the
 * case's slides shared until the same expiry through the existing share links, read only (no diagnosis, labels or
 * annotations: the expert forms their own opinion). The token is returned once and kept only as its hash.
 */
export async function issueLink(db: Db, row: { id: number; case_id: number; hospital_id: number; share_ids: string | null }, userId: number, seconds: number) {
  const token = randomBytes(24).toString('base64url');
  const expires_at = new Date(Date.now() + seconds * 1000).toISOString();
  const slides = await db.selectFrom('slides').select('id').where('case_id', '=', row.case_id).orderBy('id').limit(200).execute();
  const permissions = { diagnosis: false, remark: false, labels: false, annotation: false, need_login: false };
  return db.transaction().execute(async (trx) => {
    await closeShares(trx, row.share_ids);
    const shares: number[] = [];
    for (const s of slides) {
      const share = await createShare(trx, { slideId: s.id, hospitalId: row.hospital_id, userId, permissions, seconds, token: slideShareToken(token, s.id) });
      shares.push(share.id);
    }
    await trx.updateTable('consultations').set({ token_hash: hashToken(token), expires_at, share_ids: JSON.stringify(shares), updated_at: new Date().toISOString() })
      .where('id', '=', row.id).execute();
    return { token, expires_at };
  });
}

/** What the expert is shown of the case: its clinical information, no patient name or identifiers, and its slides. */
export async function consultedCase(db: Db, caseId: number) {
  const c = await db.selectFrom('cases').leftJoin('hospitals', 'hospitals.id', 'cases.hospital_id')
    .select(['cases.pathology_number', 'cases.gender', 'cases.age', 'cases.age_unit', 'cases.specimen_name', 'cases.clinical_diagnosis', 'cases.inspection_department',
      'hospitals.name as hospital_name', 'hospitals.en_name as hospital_en_name'])
    .where('cases.id', '=', caseId).executeTakeFirstOrThrow();
  const slides = await db.selectFrom('slides').leftJoin('slide_sections', 'slide_sections.slide_id', 'slides.id')
    .select(['slides.id', 'slides.name', 'slide_sections.stain']).where('slides.case_id', '=', caseId).orderBy('slides.id').limit(200).execute();
  return { case: c, slides };
}

/** The expert's answer, written only if the row is still in the state it was read in: of two at once, one wins. */
export async function writeAnswer(db: Db, id: number, fromStatus: string, set: Record<string, unknown>): Promise<boolean> {
  const res = await db.updateTable('consultations').set({ ...set, updated_at: new Date().toISOString() })
    .where('id', '=', id).where('status', '=', fromStatus).executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Names for a page of consultations: the colleague asked, and who wrote the opinion (a colleague, or the outside expert). */
export async function namesOf(db: Db, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.selectFrom('users').select(['id', 'realname', 'name']).where('id', 'in', ids).execute();
  return new Map(rows.map((u) => [u.id, u.realname || u.name]));
}
