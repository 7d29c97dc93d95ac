import { describe, expect, it } from 'vitest';
import { areaItemName, isStoredPath, placeReferences, resolveAreaMoves, withoutNested } from './area-rules.js';

const AREAS = [
  { id: 3, code: 'EAST', storage_url: '/srv/dsms/east' },
  { id: 4, code: '7', storage_url: 's3://dsms-west/slides' },
];

describe('hospital areas in a backup', () => {
  it('files each stored path under the storage it is in: an area slide under its area, the rest under the default', () => {
    const placed = placeReferences([
      { path: 'slides/areas/3/2026/12/a.tiff', area: 3 },
      { path: 'slides/areas/4/2026/12/b.svs', area: '4' },
      { path: 'slides/2026/05/c.svs', area: null },
      // Its area is gone: the app reads it from the default storage.
      { path: 'slides/areas/9/2026/01/d.svs', area: 9 },
      { path: '/mnt/elsewhere/e.svs', area: null },
      { path: 's3://other/f.svs', area: 3 },
      { path: 'slides/areas/3/2026/12/a.tiff', area: 3 },
    ], ['uploads/attachments/x/p.png', null, 'slides/2026/05/c.svs'], [3, 4, 5]);
    expect(placed.base).toEqual(['slides/2026/05/c.svs', 'slides/areas/9/2026/01/d.svs', 'uploads/attachments/x/p.png']);
    expect([...placed.areas]).toEqual([[3, ['slides/areas/3/2026/12/a.tiff']], [4, ['slides/areas/4/2026/12/b.svs']], [5, []]]);
    expect(areaItemName(3, 'slides/areas/3/2026/12/a.tiff')).toBe('areas/3/slides/areas/3/2026/12/a.tiff');
    expect([isStoredPath('slides/a'), isStoredPath(''), isStoredPath('/a'), isStoredPath('file:a'), isStoredPath(7)]).toEqual([true, false, false, false, false]);
  });

  it('leaves out of a listing what belongs to a storage nested inside it', () => {
    const keys = ['slides/a.svs', 'east/slides/b.svs', 'eastern/c.svs', 'west/x/d.svs'];
    expect(withoutNested(keys, 'dsms', ['dsms/east', 'dsms', 'other/west', 'dsms/west/x/'])).toEqual(['slides/a.svs', 'eastern/c.svs']);
    expect(withoutNested(keys, '', ['east'])).toEqual(['slides/a.svs', 'eastern/c.svs', 'west/x/d.svs']);
    expect(withoutNested(['slides/a', 'areas/e/slides/b'], '/srv/dsms/data', ['/srv/dsms/data/areas/e', '/srv/dsms'])).toEqual(['slides/a']);
  });

  it('moves an area named by id or code to a location the app accepts, spelt as the app stores it', () => {
    expect(resolveAreaMoves([], AREAS)).toEqual({ moves: new Map() });
    expect(resolveAreaMoves(['EAST=file:///srv/new/east/', '4= s3://dsms-new/west/ '], AREAS)).toEqual({ moves: new Map([[3, '/srv/new/east'], [4, 's3://dsms-new/west']]) });
    // A code of digits is taken as a code when no area has that id.
    expect(resolveAreaMoves(['7=/srv/w'], AREAS)).toEqual({ moves: new Map([[4, '/srv/w']]) });
  });

  it('names every wrong --area at once, each with what is wrong', () => {
    const result = resolveAreaMoves(['EAST', 'NORTH=/srv/n', 'EAST=relative/east', 'west=/srv/w', '4=/srv/a', '7=/srv/b', '3=/srv/../etc', '=/srv/x'], AREAS);
    expect('errors' in result && result.errors).toEqual([
      '--area EAST: expected <area id or code>=<storage url or absolute directory>',
      '--area NORTH=/srv/n: the backup has no hospital area NORTH (its areas: 3 EAST, 4 7)',
      '--area EAST=relative/east: The storage directory must be an absolute path (starting with /, not the root itself)',
      '--area west=/srv/w: the backup has no hospital area west (its areas: 3 EAST, 4 7)',
      '--area 7=/srv/b: hospital area 7 is given twice',
      '--area 3=/srv/../etc: Invalid storage location: enter an absolute directory on the server (such as /srv/dsms/east) or s3://bucket/prefix',
      '--area =/srv/x: expected <area id or code>=<storage url or absolute directory>',
    ]);
    expect(resolveAreaMoves(['EAST=/srv/e'], [])).toEqual({ errors: ['--area EAST=/srv/e: the backup has no hospital area EAST (it has none)'] });
  });
});
