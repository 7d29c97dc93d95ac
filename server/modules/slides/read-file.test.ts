import { describe, expect, it } from 'vitest';
import { scanTime } from './read-file.js';

describe('scanTime', () => {
  it('reads the Aperio Date and Time properties (US order, two- or four-digit year)', () => {
    expect(scanTime('Aperio Image Library v11\r\n46000x32914|AppMag = 20|Date = 12/29/09|Time = 09:59:15|MPP = 0.499')).toBe('2009-12-29T09:59:15');
    expect(scanTime('Aperio|Date = 3/7/2021')).toBe('2021-03-07T00:00:00');
  });

  it('leaves the time unknown when the description has none or an unreadable one', () => {
    expect(scanTime(undefined)).toBeNull();
    expect(scanTime('generic tiff')).toBeNull();
    expect(scanTime('Aperio|Date = yesterday')).toBeNull();
  });
});
