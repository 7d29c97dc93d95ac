import os from 'node:os';
import path from 'node:path';
import { parseRealtimeConfig, type RealtimeConfig } from './realtime/config.js';
import { parseHisConfig, type HisConfig } from './modules/his/index.js';
import type { SecretsConfig } from './security/sealed-secrets.js';
import { parseCorsOrigins, parseFrameSources, parsePublicUrl, parseTrustProxy, type CorsOrigins, type TrustProxy } from './config-http.js';
import { appPath } from './paths.js';
import { parseJobTimeLimits, type LimitedJobType } from './modules/jobs/time-limits.js';
import { DEFAULT_PIXEL_CAPS, type PixelCaps } from './modules/slides/conversion/pixel-cap.js';
import { DEFAULT_STATEMENT_TIMEOUT_MS } from './db/statement-timeout.js';
import { parseS3Connection, parseStorageConfig, type S3Connection, type StorageConfig } from './storage/storage-url.js';
import { parseJobQueues } from './modules/jobs/queues.js';
import type { BlockCacheConfig } from './storage/open-storage.js';
import { parseFhirOutbound, parseOutboundKind, type FhirOutboundConfig, type OutboundKind } from './modules/diagnosis/outbound-config.js';
import { parseHl7Config, type Hl7Config } from './modules/hl7/config.js';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  demo: boolean;
  tokenTtlSeconds: number;
  /** The built front end (DIST_DIR, default the app's dist/, where `npm run build` puts it). */
  distDir: string;
  logLevel: string;
  /** Largest slide file POST /api/upload/large accepts (UPLOAD_MAX_BYTES); unset means no limit. */
  uploadMaxBytes?: number;
  /** Memory for hot and produced slide tiles, per process (TILE_CACHE_MB). */
  tileCacheMb: number;
  /** What one user may keep in attachments (POST /api/upload/image), in MiB (ATTACHMENT_QUOTA_MB, default 1024). */
  attachmentQuotaMb: number;
  /** Server processes sharing the port (WORKERS); 1 serves from the starting process itself. */
  workers: number;
  /** Whose X-Forwarded-* headers to believe (TRUST_PROXY); off by default. */
  trustProxy: TrustProxy;
  /** The address users reach the app at (PUBLIC_URL), for absolute URLs in answers; never from request headers. */
  publicUrl: string;
  /** Origins besides this site that the InnerIframe page may embed (CSP_FRAME_SRC). */
  frameSources: string[];
  /** Other sites whose pages may read the IIIF and Deep Zoom answers (IIIF_CORS_ORIGINS, default `*`): modules/tiles/cors.ts. */
  iiifCorsOrigins: CorsOrigins;
  /** Requests a minute per client address to each of login and challenge (AUTH_RATE_LIMIT_PER_MINUTE, default 300). */
  authRateLimitPerMinute: number;
  /** How long a background job's claim holds without a heartbeat (JOB_LEASE_SECONDS, default 60): after a crash, its job resumes this much later. */
  jobLeaseMs: number;
  /** How long one attempt of each job type may run (JOB_TIME_LIMIT_INGEST_SECONDS, …_CONVERSION_…, …_FOCUS_…: modules/jobs/time-limits.ts). */
  jobTimeLimitsMs: Record<LimitedJobType, number>;
  /** Pixels a conversion may declare: photos and striped TIFFs (CONVERT_MAX_PIXELS), OpenSlide's formats (CONVERT_SLIDE_MAX_PIXELS). */
  pixelCaps: PixelCaps;
  /** Slide-label OCR (outer/ocr): TESSERACT_PATH, OCR_LANGUAGES, OCR_TIMEOUT_SECONDS, OCR_MEMORY_MB. */
  ocr?: Partial<OcrConfig>;
  /** The realtime channel's broker: embedded, or RabbitMQ with RABBITMQ_URL / MQTT_URL (realtime/config.ts). */
  realtime: RealtimeConfig;
  /** The hospital information system registration looks patients up in (HIS_ADAPTER, HIS_URL, …: modules/his). */
  his: HisConfig;
  /** Where a sent report goes (REPORT_OUTBOUND: `none`, `outbox` or `fhir`; modules/diagnosis/outbound.ts). */
  reportOutbound: OutboundKind;
  /** The FHIR receiver of REPORT_OUTBOUND=fhir (FHIR_BASE_URL, FHIR_TOKEN, FHIR_TIMEOUT_MS, FHIR_MAX_ATTEMPTS, FHIR_SYSTEM_BASE). */
  fhirOutbound: FhirOutboundConfig;
  /** HL7 v2 with the HIS over MLLP: the listener (HL7_MLLP_PORT, off by default) and, for REPORT_OUTBOUND=hl7, the HIS's listener (modules/hl7). */
  hl7: Hl7Config;
  /** How long PostgreSQL runs one statement before cancelling it, in ms (DB_STATEMENT_TIMEOUT_MS, default 15 s; 0: never). */
  dbStatementTimeoutMs: number;
  /** The CJK font report PDFs embed (REPORT_FONT, a .ttf/.otf/.ttc file) and the face inside a .ttc (REPORT_FONT_FACE). */
  reportFont: { file?: string; face?: string };
  /** The key secrets are stored sealed with: SECRETS_KEY, else secrets.key in the data directory (security/sealed-secrets.ts). */
  secrets: SecretsConfig;
  /** Where slide files, uploads, conversions and thumbnails live: DATA_DIR, or STORAGE_URL=s3://bucket/prefix with S3_* (storage/storage-url.ts). */
  storage: StorageConfig;
  /** The block cache in front of S3 reads: S3_CACHE_MB of memory (default 256), S3_CACHE_DIR and S3_CACHE_DIR_MB of local disk (default none). */
  blockCache: BlockCacheConfig;
  /** The S3 endpoint and keys hospital areas on `s3://` reach their buckets with (S3_*; storage/area-storages.ts). */
  s3Connection: S3Connection;
  /** The job queues this node's runner claims from (JOB_QUEUES, comma-separated); undefined: every queue. */
  jobQueues?: string[];
}

/** Reads the environment once; every other module receives the config as a value. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): ServerConfig {
  const dataDir = path.resolve(env.DATA_DIR ?? 'data');
  return {
    port: Number(env.PORT ?? 8001),
    host: env.HOST ?? '0.0.0.0',
    dataDir,
    databaseUrl: env.DATABASE_URL || undefined,
    demo: env.DSMS_DEMO !== '0',
    tokenTtlSeconds: Number(env.TOKEN_TTL_SECONDS ?? 12 * 3600),
    distDir: env.DIST_DIR ? path.resolve(env.DIST_DIR) : appPath('dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    tileCacheMb: Number(env.TILE_CACHE_MB ?? 256),
    uploadMaxBytes: env.UPLOAD_MAX_BYTES ? Number(env.UPLOAD_MAX_BYTES) : undefined,
    attachmentQuotaMb: env.ATTACHMENT_QUOTA_MB ? Number(env.ATTACHMENT_QUOTA_MB) : 1024,
    workers: workerCount(env.WORKERS),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    publicUrl: parsePublicUrl(env.PUBLIC_URL, Number(env.PORT ?? 8001)),
    frameSources: parseFrameSources(env.CSP_FRAME_SRC),
    iiifCorsOrigins: parseCorsOrigins(env.IIIF_CORS_ORIGINS),
    authRateLimitPerMinute: authRateLimit(env.AUTH_RATE_LIMIT_PER_MINUTE),
    jobLeaseMs: Math.max(1, Number(env.JOB_LEASE_SECONDS) || 60) * 1000,
    jobTimeLimitsMs: parseJobTimeLimits(env),
    pixelCaps: {
      photoPixels: env.CONVERT_MAX_PIXELS ? positive('CONVERT_MAX_PIXELS', env.CONVERT_MAX_PIXELS) : DEFAULT_PIXEL_CAPS.photoPixels,
      slidePixels: env.CONVERT_SLIDE_MAX_PIXELS ? positive('CONVERT_SLIDE_MAX_PIXELS', env.CONVERT_SLIDE_MAX_PIXELS) : DEFAULT_PIXEL_CAPS.slidePixels,
    },
    realtime: parseRealtimeConfig(env),
    his: parseHisConfig(env),
    reportOutbound: parseOutboundKind(env.REPORT_OUTBOUND),
    fhirOutbound: parseFhirOutbound(env, parseOutboundKind(env.REPORT_OUTBOUND)),
    hl7: parseHl7Config(env, parseOutboundKind(env.REPORT_OUTBOUND) === 'hl7'),
    dbStatementTimeoutMs: statementTimeoutMs(env),
    reportFont: { file: env.REPORT_FONT || undefined, face: env.REPORT_FONT_FACE || undefined },
    secrets: { dataDir, key: env.SECRETS_KEY || undefined },
    storage: parseStorageConfig(env),
    s3Connection: parseS3Connection(env),
    jobQueues: parseJobQueues(env.JOB_QUEUES),
    blockCache: {
      memoryMb: env.S3_CACHE_MB ? positive('S3_CACHE_MB', env.S3_CACHE_MB) : 256,
      dir: env.S3_CACHE_DIR ? path.resolve(env.S3_CACHE_DIR) : undefined,
      dirMb: env.S3_CACHE_DIR_MB ? positive('S3_CACHE_DIR_MB', env.S3_CACHE_DIR_MB) : (env.S3_CACHE_DIR ? 4096 : 0),
    },
    ocr: {
      binary: env.TESSERACT_PATH || undefined,
      languages: env.OCR_LANGUAGES || undefined,
      timeoutMs: env.OCR_TIMEOUT_SECONDS ? positive('OCR_TIMEOUT_SECONDS', env.OCR_TIMEOUT_SECONDS) * 1000 : undefined,
      memoryMb: env.OCR_MEMORY_MB ? positive('OCR_MEMORY_MB', env.OCR_MEMORY_MB) : undefined,
    },
  };
}

/**
 * A partial configuration (a test's, an embedding's) completed with loadConfig's defaults for an empty environment,
 * so a default is decided here only; a key given as undefined takes the default too. Defaults derived from the data
 * directory (the secrets key file) follow a given one.
 */
export function withDefaults<T extends Partial<ServerConfig>>(given: T): ServerConfig & T {
  const set = Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined));
  return { ...loadConfig(given.dataDir ? { DATA_DIR: given.dataDir } : {}), ...set } as ServerConfig & T;
}

export interface OcrConfig { binary: string; languages: string; timeoutMs: number; memoryMb: number }

function positive(name: string, value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`${name} must be a positive whole number, not "${value}"`);
  return n;
}

/** AUTH_RATE_LIMIT_PER_MINUTE: a positive whole number; 300 by default, above what a hospital behind one NAT address logs in at. */
function authRateLimit(value: string | undefined): number {
  if (value === undefined || value === '') return 300;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`AUTH_RATE_LIMIT_PER_MINUTE must be a positive whole number, not "${value}"`);
  return n;
}

/** WORKERS: a positive whole number; unset means one per core. */
function workerCount(value: string | undefined): number {
  if (value === undefined || value === '') return os.availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`WORKERS must be a positive whole number, not "${value}"`);
  return n;
}

/** DB_STATEMENT_TIMEOUT_MS: how long PostgreSQL runs one statement before cancelling it (default 15 s; 0 turns it off). */
function statementTimeoutMs(env: NodeJS.ProcessEnv): number {
  const value = env.DB_STATEMENT_TIMEOUT_MS;
  if (value === undefined || value === '') return DEFAULT_STATEMENT_TIMEOUT_MS;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new Error(`DB_STATEMENT_TIMEOUT_MS must be a whole number of milliseconds, not "${value}"`);
  return n;
}
