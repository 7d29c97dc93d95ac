import { createHash } from 'node:crypto';
import { UPLOAD_CHUNK_BYTES } from '../../../src/core/constants.js';
import type { MessageKey } from '../../i18n/messages.js';
import type { Params } from '../../i18n/translate.js';
import { isSafeFileName } from './file-name.js';
import { isMd5Hex } from './md5.js';
import { ownerPrefix, type UploadOwner } from './ownership.js';

/** The pure rules of the chunked upload protocol (spec §7, §9; ARCHITECTURE.md §3). */

/** 2 TB of 2 MiB chunks; a bound so a typo in total_num cannot make `lack` enormous. */
export const MAX_TOTAL_NUM = 1_000_000;

export interface ChunkFields {
  fileName: string;
  num: number;
  totalNum: number;
  md5: string;
  totalMd5: string;
  totalSize?: number;
}

export type FieldErrors = Record<string, { key: MessageKey; params?: Params }[]>;

export type Parsed = { ok: true; fields: ChunkFields } | { ok: false; errors: FieldErrors };

/** Reads the multipart fields of one chunk; extra fields are allowed and ignored. */
export function parseChunkFields(raw: Record<string, string>, chunkBytes = UPLOAD_CHUNK_BYTES): Parsed {
  const errors: FieldErrors = {};
  const fail = (field: string, key: MessageKey, params?: Params) => (errors[field] ??= []).push({ key, params });
  const present = (field: string) => raw[field] !== undefined && raw[field] !== '';
  const integer = (field: string) => (/^\d{1,15}$/.test(raw[field]!) ? Number(raw[field]) : undefined);

  for (const field of ['file_name', 'num', 'total_num', 'md5', 'total_md5']) {
    if (!present(field)) fail(field, 'error.field_required', { field });
  }
  if (present('file_name') && !isSafeFileName(raw.file_name!)) fail('file_name', 'upload.file_name_invalid');

  const given = present('total_num') ? integer('total_num') : undefined;
  const totalNum = given !== undefined && given >= 1 && given <= MAX_TOTAL_NUM ? given : undefined;
  if (present('total_num') && totalNum === undefined) fail('total_num', 'upload.total_num_invalid', { max: MAX_TOTAL_NUM });
  const num = present('num') ? integer('num') : undefined;
  if (present('num') && (num === undefined || num < 1 || (totalNum !== undefined && num > totalNum))) {
    fail('num', 'upload.num_invalid');
  }
  for (const field of ['md5', 'total_md5']) {
    if (present(field) && !isMd5Hex(raw[field]!)) fail(field, 'upload.md5_invalid', { field });
  }
  const totalSize = present('total_size') ? integer('total_size') : undefined;
  if (present('total_size') && (totalSize === undefined || (totalNum !== undefined && chunkCount(totalSize, chunkBytes) !== totalNum))) {
    fail('total_size', 'upload.total_size_invalid');
  }

  if (Object.keys(errors).length > 0) return { ok: false, errors };
  return {
    ok: true,
    fields: {
      fileName: raw.file_name!, num: num!, totalNum: totalNum!,
      md5: raw.md5!.toLowerCase(), totalMd5: raw.total_md5!.toLowerCase(), totalSize,
    },
  };
}

export const chunkCount = (size: number, chunkBytes = UPLOAD_CHUNK_BYTES) => Math.max(1, Math.ceil(size / chunkBytes));

/**
 * Every chunk but the last is exactly one chunk long; the last is what remains (an empty file is one empty chunk).
 * Returns the allowed size range of chunk `num`.
 */
export function chunkSizeRange(f: ChunkFields, chunkBytes = UPLOAD_CHUNK_BYTES): { min: number; max: number } {
  if (f.num < f.totalNum) return { min: chunkBytes, max: chunkBytes };
  if (f.totalSize !== undefined) {
    const last = f.totalSize - (f.totalNum - 1) * chunkBytes;
    return { min: last, max: last };
  }
  return { min: f.totalNum === 1 ? 0 : 1, max: chunkBytes };
}

/** The smallest file these fields can describe, for the configured size limit before any byte is stored. */
export const minimumFileSize = (f: ChunkFields, chunkBytes = UPLOAD_CHUNK_BYTES) =>
  f.totalSize ?? (f.totalNum - 1) * chunkBytes + (f.totalNum > 1 ? 1 : 0);

/**
 * The same file sent again by the same user in the same hospital maps to the same id, so it resumes; another
 * user (or hospital) sending the same file gets an upload of their own. Nothing of the name reaches the path.
 */
export function uploadId(f: ChunkFields, owner: UploadOwner): string {
  return ownerPrefix(owner) + createHash('sha256').update(JSON.stringify([f.totalMd5, f.fileName, f.totalNum, f.totalSize ?? null])).digest('hex').slice(0, 32);
}

/** Chunk numbers 1..total that are not present, ascending. */
export function missingChunks(present: Iterable<number>, total: number): number[] {
  const have = new Set(present);
  const lack: number[] = [];
  for (let n = 1; n <= total; n++) if (!have.has(n)) lack.push(n);
  return lack;
}

/** Progress as a fraction that reaches 1 only when every chunk is present. */
export function progress(presentCount: number, total: number): number {
  return Math.floor((presentCount / total) * 10_000) / 10_000;
}

export type ChunkAnswer = { code: 0; msg: number; lack: number[] } | { code: 1; path: string };
