import { challengeSweepJob } from './auth/challenge-job.js';
import type { FhirOutboundConfig } from './diagnosis/outbound-config.js';
import { reportOutboundJob } from './diagnosis/outbound-job.js';
import { releaseDueJob } from './diagnosis/release-job.js';
import { focusCheckJob } from './focus/job.js';
import type { Hl7Config } from './hl7/config.js';
import { hl7ResultJob } from './hl7/result-job.js';
import { JobRegistry, type JobType } from './jobs/registry.js';
import type { LimitedJobType } from './jobs/time-limits.js';
import { scannerOfflineJob } from './scanners/offline-job.js';
import { slideConversionJob } from './slides/conversion/convert-job.js';
import type { PixelCaps } from './slides/conversion/pixel-cap.js';
import { slideIngestJob } from './slides/ingest.js';
import { labelBindJob } from './slides/label-bind-job.js';
import { areaStorages } from '../storage/area-storages.js';
import type { BlockCacheConfig } from '../storage/open-storage.js';
import type { S3Connection, StorageConfig } from '../storage/storage-url.js';
import { appStorage } from '../storage/app-storage.js';
import { demoFreezeJob } from '../db/seed/department-freeze-job.js';
import type { ReportFontConfig } from './diagnosis/pdf.js';

/** What the job types take from the server's config; limits left out take their defaults. */
export interface JobConfig {
  dataDir: string;
  jobLeaseMs: number;
  jobTimeLimitsMs?: Partial<Record<LimitedJobType, number>>;
  pixelCaps?: PixelCaps;
  /** The FHIR receiver of sent reports (REPORT_OUTBOUND=fhir). */
  fhirOutbound?: FhirOutboundConfig;
  /** The HIS's MLLP listener sent reports' ORU^R01 go to (REPORT_OUTBOUND=hl7). */
  hl7?: Hl7Config;
  /** Where slide files are (STORAGE_URL): the data directory when left out. */
  storage?: StorageConfig;
  blockCache?: BlockCacheConfig;
  /** How hospital areas on S3 reach their buckets (their slides are in their own storages: storage/area-storages.ts). */
  s3Connection?: S3Connection;
  /** What report PDFs name and are set in (PUBLIC_URL, REPORT_FONT): the demo's freeze job renders them. */
  publicUrl?: string;
  reportFont?: ReportFontConfig;
}

/**
 * Each module registers here the queued job types it enqueues (slides: ingest, conversion, label barcode binding;
 * focus; diagnosis: the outbound report; hl7: a result to the HIS; the demo seed: its reports' documents; a DICOM
 * import or an export adds a line). The jobs module knows none of them (it depends one way).
 */
function registerQueuedJobs(registry: JobRegistry, config: JobConfig): JobRegistry {
  const { dataDir, jobLeaseMs: lease, jobTimeLimitsMs: limits = {}, pixelCaps: caps } = config;
  // Each slide's files are in its hospital area's storage, or the default one (the data directory or STORAGE_URL).
  const areas = areaStorages(config);
  return registry
    .register(slideIngestJob(dataDir, lease, { timeLimitMs: limits['slides.ingest'], caps, areas }))
    .register(slideConversionJob(dataDir, lease, { timeLimitMs: limits['slides.convert'], caps, areas }))
    .register(focusCheckJob(dataDir, lease, { timeLimitMs: limits['slides.focus'], areas }))
    .register(labelBindJob(dataDir, lease, areas))
    .register(reportOutboundJob(config.fhirOutbound, lease))
    .register(hl7ResultJob(config.hl7, lease))
    // The demo's seeded signed reports, frozen once the server runs (server/db/seed/demo-department.ts queues it).
    .register(demoFreezeJob({ storage: appStorage(config).storage, publicUrl: config.publicUrl ?? 'http://localhost:8001', font: config.reportFont }, lease));
}

/**
 * … and the scheduled ones (JobType.everyMs): the installation's periodic work, run by the same runner as the queued
 * jobs, so each runs once per installation (the primary's runner: main.ts), never as a timer in every process.
 */
function registerScheduledJobs(registry: JobRegistry): JobRegistry {
  return registry
    .register(releaseDueJob())
    .register(challengeSweepJob())
    .register(scannerOfflineJob());
}

/** The queued job types (a test's runner for one kind of work). */
export const jobTypesFor = (config: JobConfig): JobType<unknown>[] => registerQueuedJobs(new JobRegistry(), config).types();

/** The scheduled job types. */
export const scheduledJobTypes = (): JobType<unknown>[] => registerScheduledJobs(new JobRegistry()).types();

/** Every job type this installation runs, queued and scheduled, in one registry: what main.ts's runner takes. */
export const installationJobTypes = (config: JobConfig): JobType<unknown>[] =>
  registerScheduledJobs(registerQueuedJobs(new JobRegistry(), config)).types();
