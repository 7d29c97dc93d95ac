import { describe, expect, it } from 'vitest';
import { areaJobQueue, areaStorageUrl, parseAreaStorage, parseQueueNames } from './hospitalArea.js';

describe('parseAreaStorage', () => {
  it('takes an absolute directory, with or without file://, and S3 buckets with prefixes', () => {
    expect(parseAreaStorage('/srv/dsms/area-b/')).toEqual({ kind: 'local', dir: '/srv/dsms/area-b' });
    expect(parseAreaStorage('file:///srv/dsms/b')).toEqual({ kind: 'local', dir: '/srv/dsms/b' });
    expect(parseAreaStorage('s3://dsms-east/slides/b/')).toEqual({ kind: 's3', bucket: 'dsms-east', prefix: 'slides/b' });
    expect(parseAreaStorage('s3://dsms-east')).toEqual({ kind: 's3', bucket: 'dsms-east', prefix: '' });
  });

  it('spells a location one way, as it is stored', () => {
    const spelt = (input: string) => {
      const location = parseAreaStorage(input);
      return 'error' in location ? location.error : areaStorageUrl(location);
    };
    expect(spelt('file:///srv/dsms/b/')).toBe('/srv/dsms/b');
    expect(spelt(' s3://dsms-east/slides/b/ ')).toBe('s3://dsms-east/slides/b');
    expect(spelt('s3://dsms-east/')).toBe('s3://dsms-east');
  });

  it('refuses relative paths, escapes, other schemes and bad buckets', () => {
    expect(parseAreaStorage('data/b')).toEqual({ error: 'area.storage_not_absolute' });
    expect(parseAreaStorage('/')).toEqual({ error: 'area.storage_not_absolute' });
    for (const bad of ['/srv/../etc', '/srv//b', '/srv/./b', 'http://x/y', 's3://A_B/x', 's3://b/x/../y', '/srv/b\u0000', '', 'C:\\data']) {
      expect(parseAreaStorage(bad)).toHaveProperty('error');
    }
  });
});

describe('parseQueueNames', () => {
  it('splits and checks the names', () => {
    expect(parseQueueNames('area-b, area_b_heavy')).toEqual(['area-b', 'area_b_heavy']);
    expect(parseQueueNames(' , ')).toEqual({ error: 'area.queue_required' });
    expect(parseQueueNames('Area B')).toEqual({ error: 'area.queue_invalid' });
    expect(parseQueueNames('a,a')).toEqual({ error: 'area.queue_repeated' });
    expect(parseQueueNames('a,b,c,d,e,f,g,h,i')).toEqual({ error: 'area.queue_too_many' });
  });

  it('puts an area’s jobs on its first queue', () => {
    expect(areaJobQueue('area-b, other')).toBe('area-b');
    expect(areaJobQueue('')).toBe('default');
  });
});
