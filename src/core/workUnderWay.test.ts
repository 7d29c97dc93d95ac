import { describe, expect, it } from 'vitest';
import { progressFields, rowsAtWork, WORK_FALLBACK_POLL_MS, WORK_POLL_MS, workPollMs } from './workUnderWay';

describe('work under way in a list', () => {
  const columns = [{ field: 'name', cell: 'text' }, { field: 'progress', cell: 'progress' }, { field: 'status' }];

  it('finds the fields drawn as progress', () => {
    expect(progressFields(columns)).toEqual(['progress']);
    expect(progressFields([{ field: 'name' }])).toEqual([]);
  });

  it('is at work while a row has a percentage, 0 included, and not once every row is done', () => {
    expect(rowsAtWork([{ progress: null }, { progress: 0 }], ['progress'])).toBe(true);
    expect(rowsAtWork([{ progress: 57 }], ['progress'])).toBe(true);
    expect(rowsAtWork([{ progress: null }, { progress: undefined }, { progress: '' }, {}], ['progress'])).toBe(false);
    expect(rowsAtWork([{ progress: 'n/a' }], ['progress'])).toBe(false);
    expect(rowsAtWork([{ progress: 40 }], [])).toBe(false);
    expect(rowsAtWork([], ['progress'])).toBe(false);
  });

  it('leaves the work to the pushes while the channel is up, asks slowly while it is down, and as before without a source that pushes it', () => {
    expect(workPollMs(true, true)).toBeNull();
    expect(workPollMs(true, false)).toBe(WORK_FALLBACK_POLL_MS);
    expect(workPollMs(false, true)).toBe(WORK_POLL_MS);
    expect(workPollMs(false, false)).toBe(WORK_POLL_MS);
  });
});
