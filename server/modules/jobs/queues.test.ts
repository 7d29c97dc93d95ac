import { describe, expect, it } from 'vitest';
import { parseJobQueues } from './queues.js';

describe('JOB_QUEUES', () => {
  it('names the queues a node runs; unset or empty, every queue', () => {
    expect(parseJobQueues(undefined)).toBeUndefined();
    expect(parseJobQueues(' , ')).toBeUndefined();
    expect(parseJobQueues('default, area-east,area-east')).toEqual(['default', 'area-east']);
  });

  it('stops the start on a name no queue can have', () => {
    expect(() => parseJobQueues('default,Area East')).toThrow(/JOB_QUEUES: "Area East"/);
  });
});
