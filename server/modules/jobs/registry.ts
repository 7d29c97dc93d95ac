import type { JobType } from './job-type.js';
import { slideConversionJob } from '../slides/conversion/convert-job.js';
import { focusCheckJob } from '../focus/job.js';
import { slideIngestJob } from '../slides/ingest.js';
import type { PixelCaps } from '../slides/conversion/pixel-cap.js';
import type { LimitedJobType } from './time-limits.js';
import { appStorage } from '../../storage/app-storage.js';
import type { StorageConfig } from '../../storage/storage-url.js';
import { releaseDueJob } from '../diagnosis/release-job.js';
import { challengeSweepJob } from '../auth/challenge-job.js';
import { reportOutboundJob } from '../diagnosis/outbound-job.js';
import type { FhirOutboundConfig } from '../diagnosis/outbound-config.js';

export { PermanentJobError, type JobContext, type JobType } from './job-type.js';

/**
 * The job types this installation runs: each module contributes its own (slides: ingest and conversion; a DICOM import or
 * an export adds an entry here). The runner runs exactly these; enqueueing a type not listed leaves it queued.
 */
export function jobTypesFor(config: JobConfig): JobType<unknown>[] {
  const { dataDir, jobLeaseMs: lease, jobTimeLimitsMs: limits = {}, pixelCaps: caps } = config;
  return [
    slideIngestJob(dataDir, lease, { timeLimitMs: limits['slides.ingest'], caps, storage: appStorage(config).storage }),
    slideConversionJob(dataDir, lease, { timeLimitMs: limits['slides.convert'], caps, storage: appStorage(config).storage }),
    focusCheckJob(dataDir, lease, { timeLimitMs: limits['slides.focus'] }),
    reportOutboundJob(config.fhirOutbound, lease),
  ];
}

/** What the job types take from the server's config; limits left out take their defaults. */
export interface JobConfig {
  dataDir: string;
  jobLeaseMs: number;
  jobTimeLimitsMs?: Partial<Record<LimitedJobType, number>>;
  pixelCaps?: PixelCaps;
  /** The FHIR receiver of sent reports (REPORT_OUTBOUND=fhir). */
  fhirOutbound?: FhirOutboundConfig;
  /** Where slide files are (STORAGE_URL): the data directory when left out. */
  storage?: StorageConfig;
}

/**
 * The installation's scheduled work (JobType.everyMs), run by the same runner as the queued jobs: main.ts starts it
 * once per machine, in the primary process, so each schedule runs in one process however many workers serve.
 */
export function scheduledJobTypes(): JobType<unknown>[] {
  return [releaseDueJob(), challengeSweepJob()];
}
