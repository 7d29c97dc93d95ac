import { describe, expect, it } from 'vitest';
import { isLeftOut, keyFingerprint, MANIFEST_FORMAT, migrationVerdict, missingReferences, parseManifest, type Manifest } from './manifest.js';

const HASH = 'a'.repeat(64);
const manifest = (patch: Partial<Manifest> = {}): Manifest => ({
  format: MANIFEST_FORMAT,
  created_at: '2026-12-02T10:00:00.000Z',
  app: { version: '0.1.0', node: 'v20.20.2' },
  database: { kind: 'sqlite', file: 'database/dsms.sqlite', size: 10, sha256: HASH, migration: '0040_operation_log_hospital', counts: { cases: 1 } },
  files: [{ path: 'slides/demo/demo-1.tiff', size: 5, sha256: HASH }],
  objects: null,
  areas: [{ id: 3, code: 'EAST', storage_url: '/srv/dsms/east', items: [{ path: 'slides/areas/3/2026/12/a.tiff', size: 5, sha256: HASH }] }],
  missing: [],
  secrets_key: { included: true, source: 'data-dir', fingerprint: HASH },
  ...patch,
});

describe('backup manifest', () => {
  it('leaves out the live database files, the key, uploads in progress and half-written files', () => {
    for (const p of ['dsms.sqlite', 'dsms.sqlite-wal', 'dsms.sqlite-shm', 'dsms.sqlite.building', 'secrets.key', 'uploads/parts/x/1', 'uploads/tmp/abc', 'slides/2026/05/a.svs.1a2b3c4d.partial']) {
      expect(isLeftOut(p), p).toBe(true);
    }
    for (const p of ['slides/demo/demo-1.tiff', 'slides/thumbs/1.jpg', 'uploads/complete/a.svs', 'uploads/attachments/ab/x.png', 'outbox/fhir/1.json', 'dsms.sqlite.notes']) {
      expect(isLeftOut(p), p).toBe(false);
    }
  });

  it('reports what the database names and nothing copied holds; a folder counts when a file is under it', () => {
    const present = new Set(['slides/a.svs', 'slides/series/1.dcm', 'uploads/attachments/x/p.png']);
    expect(missingReferences(['slides/a.svs', 'slides/series', 'slides/gone.svs', 'uploads/attachments/x/p.png', 'slides/gone.svs'], present)).toEqual(['slides/gone.svs']);
    // A name that only begins like a folder's is not inside it.
    expect(missingReferences(['slides/ser'], present)).toEqual(['slides/ser']);
  });

  it("takes a database this release's migrations know, refuses a newer release's", () => {
    const known = ['0001_foundation', '0039_report_documents', '0040_operation_log_hospital'];
    expect(migrationVerdict('0039_report_documents', known)).toEqual({ ok: true });
    const newer = migrationVerdict('0041_future', known);
    expect(newer.ok).toBe(false);
    expect(!newer.ok && newer.reason).toContain('0041_future, which this release does not have (its last is 0040_operation_log_hospital)');
  });

  it('fingerprints a key by SHA-256, the same bytes the same print', () => {
    const key = Buffer.alloc(32, 7);
    expect(keyFingerprint(key)).toMatch(/^[0-9a-f]{64}$/);
    expect(keyFingerprint(key)).toBe(keyFingerprint(Buffer.alloc(32, 7)));
    expect(keyFingerprint(key)).not.toBe(keyFingerprint(Buffer.alloc(32, 8)));
  });

  it('reads a backup of format 1, made before areas were backed up, as one without areas', () => {
    const old: Partial<Manifest> = manifest({ format: 'dsms-backup/1' });
    delete old.areas;
    expect(parseManifest(JSON.stringify(old))).toEqual({ ...old, areas: [] });
    expect(MANIFEST_FORMAT).toBe('dsms-backup/2');
  });

  it('reads a well-formed manifest back, and refuses paths that would lead out of the target or a bad field', () => {
    expect(parseManifest(JSON.stringify(manifest()))).toEqual(manifest());
    const bad: [Partial<Manifest> | string, string][] = [
      ['{', 'not JSON'],
      [{ format: 'dsms-backup/0' as typeof MANIFEST_FORMAT }, 'format'],
      [{ files: [{ path: '../etc/passwd', size: 1, sha256: HASH }] }, 'unsafe path'],
      [{ files: [{ path: 'slides//a', size: 1, sha256: HASH }] }, 'unsafe path'],
      [{ files: [{ path: 'slides/a', size: 1, sha256: HASH }, { path: 'slides/a', size: 1, sha256: HASH }] }, 'twice'],
      [{ files: [{ path: 'slides/a', size: -1, sha256: HASH }] }, 'size'],
      [{ objects: { url: 'https://x', items: [] } }, 'objects.url'],
      [{ objects: { url: 's3://b/p', items: [{ path: '/abs', size: 1, sha256: HASH }] } }, 'unsafe path'],
      [{ database: { ...manifest().database, file: '../dsms.sqlite' } }, 'database.file'],
      [{ database: { ...manifest().database, migration: '0040; drop table x' } }, 'database.migration'],
      [{ secrets_key: { included: true, source: 'data-dir', fingerprint: 'short' } }, 'secrets_key'],
      [{ format: 'dsms-backup/3' }, 'not one of dsms-backup/1, dsms-backup/2'],
      [{ areas: undefined }, 'areas is not a list'],
      [{ areas: [{ id: 0, code: 'EAST', storage_url: '/srv/east', items: [] }] }, 'areas: id 0'],
      [{ areas: [{ id: 3, code: 'A', storage_url: '/srv/a', items: [] }, { id: 3, code: 'B', storage_url: '/srv/b', items: [] }] }, 'areas: id 3'],
      [{ areas: [{ id: 3, code: '', storage_url: '/srv/east', items: [] }] }, 'areas 3: code'],
      [{ areas: [{ id: 3, code: 'EAST', storage_url: 'relative/east', items: [] }] }, 'areas 3: storage_url'],
      [{ areas: [{ id: 3, code: 'EAST', storage_url: '/srv/east', items: [{ path: '../../etc/passwd', size: 1, sha256: HASH }] }] }, 'areas 3 holds an unsafe path'],
    ];
    for (const [patch, message] of bad) {
      expect(() => parseManifest(typeof patch === 'string' ? patch : JSON.stringify(manifest(patch))), message).toThrow(message);
    }
  });
});
