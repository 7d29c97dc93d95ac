import { describe, expect, it } from 'vitest';
import { UPLOAD_CHUNK_BYTES as CHUNK } from '../../../src/core/constants.js';
import { isSafeFileName, sanitizeFileName } from './file-name.js';
import { formatBytes } from './format-bytes.js';
import { chunkCount, chunkSizeRange, minimumFileSize, missingChunks, parseChunkFields, progress, uploadId, type ChunkFields } from './protocol.js';

const MD5 = 'd41d8cd98f00b204e9800998ecf8427e';
const fields = (over: Record<string, string> = {}) => ({ file_name: 'a.kfb', num: '1', total_num: '3', md5: MD5, total_md5: MD5.toUpperCase(), ...over });
const parsed = (over: Record<string, string> = {}) => {
  const r = parseChunkFields(fields(over));
  if (!r.ok) throw new Error(JSON.stringify(r.errors));
  return r.fields;
};

describe('parseChunkFields', () => {
  it('reads the protocol fields, lower-cases the hashes and ignores extra ones', () => {
    expect(parseChunkFields({ ...fields(), extra: 'x' })).toEqual({
      ok: true, fields: { fileName: 'a.kfb', num: 1, totalNum: 3, md5: MD5, totalMd5: MD5, totalSize: undefined },
    });
    expect(parsed({ total_size: String(2 * CHUNK + 1) }).totalSize).toBe(2 * CHUNK + 1);
    expect(parsed({ total_size: '' }).totalSize).toBeUndefined();
  });

  it('names every field that is missing or wrong', () => {
    expect(parseChunkFields({})).toMatchObject({ ok: false, errors: { file_name: [{ key: 'error.field_required' }], num: [{}], total_num: [{}], md5: [{}], total_md5: [{}] } });
    const bad = (over: Record<string, string>) => Object.keys((parseChunkFields(fields(over)) as { errors: object }).errors ?? {});
    expect(bad({ num: '0' })).toEqual(['num']);
    expect(bad({ num: '4' })).toEqual(['num']);
    expect(bad({ num: '1.5' })).toEqual(['num']);
    expect(bad({ total_num: '0' })).toEqual(['total_num']);
    expect(bad({ total_num: '1000001' })).toEqual(['total_num']);
    expect(bad({ md5: 'g'.repeat(32) })).toEqual(['md5']);
    expect(bad({ total_md5: MD5.slice(1) })).toEqual(['total_md5']);
    expect(bad({ file_name: 'a/b.kfb' })).toEqual(['file_name']);
    expect(bad({ total_size: String(3 * CHUNK + 1) })).toEqual(['total_size']);
    expect(bad({ total_size: '-1' })).toEqual(['total_size']);
  });
});

describe('chunk sizes', () => {
  it('wants every chunk but the last to be one whole chunk', () => {
    expect(chunkSizeRange(parsed({ num: '2' }))).toEqual({ min: CHUNK, max: CHUNK });
    expect(chunkSizeRange(parsed({ num: '3' }))).toEqual({ min: 1, max: CHUNK });
    expect(chunkSizeRange(parsed({ num: '3', total_size: String(2 * CHUNK + 7) }))).toEqual({ min: 7, max: 7 });
    expect(chunkSizeRange(parsed({ num: '1', total_num: '1' }))).toEqual({ min: 0, max: CHUNK });
  });

  it('counts chunks and the smallest file the fields allow', () => {
    expect([chunkCount(0), chunkCount(1), chunkCount(CHUNK), chunkCount(CHUNK + 1)]).toEqual([1, 1, 1, 2]);
    expect(minimumFileSize(parsed())).toBe(2 * CHUNK + 1);
    expect(minimumFileSize(parsed({ total_num: '1' }))).toBe(0);
    expect(minimumFileSize(parsed({ total_size: String(3 * CHUNK) }))).toBe(3 * CHUNK);
  });
});

describe('progress', () => {
  it('lists missing chunks in ascending order and reaches 1 only when none is missing', () => {
    expect(missingChunks([3, 1], 5)).toEqual([2, 4, 5]);
    expect(missingChunks([1, 2, 9], 2)).toEqual([]);
    expect(progress(2, 3)).toBe(0.6666);
    expect(progress(9_999, 10_000)).toBe(0.9999);
    expect(progress(3, 3)).toBe(1);
  });

  it('derives the same id for the same file and owner, and another for anything else', () => {
    const f: ChunkFields = parsed();
    const owner = { userId: 7, hospitalId: 2 };
    expect(uploadId({ ...f, num: 2, md5: 'other' }, owner)).toBe(uploadId(f, owner));
    expect(uploadId(f, owner)).toMatch(/^h2u7-[0-9a-f]{32}$/);
    for (const other of [{ fileName: 'b.kfb' }, { totalNum: 4 }, { totalMd5: MD5.replace('d', 'e') }, { totalSize: 5 }]) {
      expect(uploadId({ ...f, ...other }, owner)).not.toBe(uploadId(f, owner));
    }
    expect(uploadId(f, { userId: 8, hospitalId: 2 })).not.toBe(uploadId(f, owner));
    expect(uploadId(f, { userId: 7, hospitalId: 3 })).not.toBe(uploadId(f, owner));
  });
});

describe('file names', () => {
  it('accepts plain names and refuses paths, control characters and over-long names', () => {
    for (const ok of ['a.kfb', '切片 01.svs', '.hidden', 'x'.repeat(255)]) expect(isSafeFileName(ok), ok).toBe(true);
    for (const bad of ['', '.', '..', 'a/b', 'a\\b', 'a\u0000b', 'a\nb', '片'.repeat(86)]) expect(isSafeFileName(bad), bad).toBe(false);
  });

  it('turns any attachment name into a safe one', () => {
    expect(sanitizeFileName('../x/y.png')).toBe('.._x_y.png');
    expect(sanitizeFileName(undefined)).toBe('file');
    expect(sanitizeFileName('..')).toBe('file');
    expect(Buffer.byteLength(sanitizeFileName('片'.repeat(100)))).toBeLessThanOrEqual(255);
    expect(isSafeFileName(sanitizeFileName('a\u0001/\\b'))).toBe(true);
  });
});

describe('formatBytes', () => {
  it('writes sizes the way the spec does', () => {
    expect([formatBytes(200 * 1024 * 1024), formatBytes(CHUNK), formatBytes(1536), formatBytes(10), formatBytes(1024 ** 4)]).toEqual(['200M', '2M', '1.5K', '10B', '1T']);
  });
});
