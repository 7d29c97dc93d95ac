import type { JobType } from '../jobs/job-type.js';
import { scheduledSweep } from '../jobs/scheduled-job.js';
import { sweepOffline } from './queries.js';

export const SCANNER_OFFLINE_JOB = 'scanners.offline-sweep';

/** How often silent scanners are looked for: a scanner is shown offline at most this long after its minute is up. */
export const SWEEP_MS = 10_000;

/**
 * Turns scanners silent for a minute offline, every `everyMs`, as a scheduled job: once per installation (the
 * primary's runner), with nobody asking, instead of a timer in every worker. Each change is announced on the
 * runner's handle (`scanner.status`), which main.ts forwards to the realtime pushes.
 */
export function scannerOfflineJob(everyMs = SWEEP_MS): JobType<unknown> {
  return scheduledSweep(SCANNER_OFFLINE_JOB, everyMs, sweepOffline);
}
