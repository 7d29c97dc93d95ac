import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AreaStorages } from './area-storages.js';

describe('AreaStorages', () => {
  const dataDir = '/srv/dsms/data';
  const registry = () => new AreaStorages({ dataDir, s3Connection: { region: 'us-east-1', forcePathStyle: true, endpoint: 'http://127.0.0.1:9' } });

  it('gives a slide of no area the default storage, and an area its own, opened once and kept', () => {
    const areas = registry();
    expect(areas.of(null)).toBe(areas.base);
    expect(areas.base.root).toBe(path.resolve(dataDir));
    const east = areas.of({ id: 1, storage_url: '/srv/dsms/east' });
    expect(east.root).toBe('/srv/dsms/east');
    expect(east.cache).toBeUndefined();
    expect(east.storage.kind).toBe('local');
    expect(areas.of({ id: 1, storage_url: '/srv/dsms/east' })).toBe(east);
    // A new location is a new storage (a location holding slides never changes: areas/hooks.ts).
    expect(areas.of({ id: 1, storage_url: '/srv/dsms/east2' })).not.toBe(east);
  });

  it('reads an S3 area’s files through its own block cache, under a root of its own', () => {
    const areas = registry();
    const west = areas.of({ id: 2, storage_url: 's3://dsms-west/slides' });
    expect(west.storage.kind).toBe('s3');
    expect(west.cache).toBeDefined();
    expect(west.root.startsWith(path.join(path.resolve(dataDir), '.area-objects'))).toBe(true);
    const remote = areas.remoteFor(path.join(west.root, 'slides/areas/2/2026/12/a.svs'));
    expect(remote).toMatchObject({ storage: west.storage, cache: west.cache, dataDir: west.root });
    // Local files (the data directory's, a local area's) have none.
    areas.of({ id: 3, storage_url: '/srv/dsms/east' });
    expect(areas.remoteFor('/srv/dsms/east/slides/a.svs')).toBeUndefined();
    expect(areas.remoteFor(path.join(dataDir, 'slides/a.svs'))).toBeUndefined();
  });

  it('refuses a location the write check would have refused', () => {
    expect(() => registry().of({ id: 4, storage_url: 'relative/dir' })).toThrow(/not valid/);
  });
});
