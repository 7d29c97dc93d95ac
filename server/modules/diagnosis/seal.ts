import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { SigningKeys } from '../../http/signing-keys.js';
import type { ReportRow } from './queries.js';

/** Report verification seals never expire: a report signed years ago must still verify. */
export const SEAL_LIFETIME_MS = 100 * 365 * 24 * 3600 * 1000;

export const TEXT_FIELDS = ['gross_description', 'microscopic', 'diagnosis', 'advice', 'postscript'] as const;

export const sha256 = (data: string | Buffer) => createHash('sha256').update(data).digest('hex');

/** The hash of what a signed report says (its texts, case and signing time). */
export const contentHash = (r: Pick<ReportRow, 'case_id' | 'sign_at' | (typeof TEXT_FIELDS)[number]>) =>
  sha256(JSON.stringify([r.case_id, r.sign_at, ...TEXT_FIELDS.map((f) => r[f] ?? '')]));

/** "<key id>.<HMAC-SHA256 of hash>" with the current report verification key. */
export async function sealOf(keys: SigningKeys, hash: string): Promise<string> {
  const key = await keys.current();
  return `${key.keyId}.${createHmac('sha256', key.secret).update(hash).digest('hex')}`;
}

/** True when `seal` was made over `hash` by one of the report verification keys. */
export async function sealMatches(keys: SigningKeys, seal: string | null, hash: string): Promise<boolean> {
  const [keyId, sig] = (seal ?? '').split('.');
  const key = keyId ? await keys.byId(keyId) : undefined;
  if (!key || !sig) return false;
  const expected = Buffer.from(createHmac('sha256', key.secret).update(hash).digest('hex'));
  const given = Buffer.from(sig);
  return given.length === expected.length && timingSafeEqual(given, expected);
}

/**
 * What signing stamps: who and when, and the verification seal behind the report's QR code: a random code for the
 * link and an HMAC (key id + signature) over the hash of what the report says, so the public page can tell a
 * genuine, unchanged report from anything else.
 */
export async function signingStamp(keys: SigningKeys, report: ReportRow, signAt: string, signer: number) {
  return {
    sign_at: signAt, sign_doctor: signer, verify_code: randomBytes(12).toString('hex'),
    verify_hash: await sealOf(keys, contentHash({ ...report, sign_at: signAt })),
  };
}

/** True when the report's seal matches what it says now. */
export const sealHolds = (keys: SigningKeys, report: ReportRow) => sealMatches(keys, report.verify_hash, contentHash(report));
