import { QUEUE_NAME } from '../../../src/core/hospitalArea.js';

/** The queue of every job that names none: scheduled work, report delivery, slides outside any hospital area. */
export const DEFAULT_QUEUE = 'default';

/**
 * JOB_QUEUES=default,area-b: the queues this node's runner claims from; unset or empty, every queue (one machine, or
 * nodes that all reach every storage). A bad name stops the start, as any bad setting does.
 */
export function parseJobQueues(value: string | undefined): string[] | undefined {
  const names = (value ?? '').split(',').map((s) => s.trim()).filter(Boolean);
  if (!names.length) return undefined;
  const bad = names.find((n) => !QUEUE_NAME.test(n));
  if (bad) throw new Error(`JOB_QUEUES: "${bad}" is no queue name (lower-case letters, digits, - and _, at most 64)`);
  return [...new Set(names)];
}
