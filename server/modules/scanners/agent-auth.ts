import type { FastifyRequest } from 'fastify';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { hashScannerKey, looksLikeKey } from './keys.js';
import { scannerByKeyHash, type AgentScanner } from './queries.js';

export const SCANNER_KEY_HEADER = 'x-scanner-key';

/**
 * Scanner uploads are owned, in the upload id (`h<hospital>u<owner>-…`), by this base plus the scanner's id: an
 * owner no user id reaches (PostgreSQL `serial` stops at 2,147,483,647), so a scanner's upload is never a user's.
 */
export const SCANNER_UPLOADER_BASE = 3_000_000_000;
export const scannerUploader = (scannerId: number) => SCANNER_UPLOADER_BASE + scannerId;

/**
 * The scanner calling: its key travels in `X-Scanner-Key`, never as a bearer token, so a scanner key is no user
 * session (every user API answers it 401) and a user token opens no scanner route. Unknown or revoked: 401.
 */
export async function agentScanner(db: Db, request: FastifyRequest): Promise<AgentScanner> {
  const raw = request.headers[SCANNER_KEY_HEADER];
  const key = Array.isArray(raw) ? raw[0] : raw;
  if (!looksLikeKey(key)) throw new AppError(401, 'scanner.key_invalid');
  const scanner = await scannerByKeyHash(db, hashScannerKey(key));
  if (!scanner) throw new AppError(401, 'scanner.key_invalid');
  return scanner;
}

/** The scanner's door into the chunked upload protocol (upload/routes.ts): `POST /api/scanner-agent/upload`. */
export const scannerUploads = (db: Db) => ({
  route: '/api/scanner-agent/upload',
  async owner(request: FastifyRequest) {
    const scanner = await agentScanner(db, request);
    return { hospitalId: scanner.hospital_id, userId: scannerUploader(scanner.id) };
  },
});
