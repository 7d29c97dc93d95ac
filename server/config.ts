import os from 'node:os';
import path from 'node:path';

export interface ServerConfig {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl?: string;
  demo: boolean;
  tokenTtlSeconds: number;
  distDir: string;
  logLevel: string;
  /** Largest slide file POST /api/upload/large accepts (UPLOAD_MAX_BYTES); unset means no limit. */
  uploadMaxBytes?: number;
  /** Memory for hot and produced slide tiles, per process (TILE_CACHE_MB). */
  tileCacheMb?: number;
  /** Server processes sharing the port (WORKERS); 1 serves from the starting process itself. */
  workers: number;
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
    distDir: path.resolve(env.DIST_DIR ?? 'dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    tileCacheMb: Number(env.TILE_CACHE_MB ?? 256),
    uploadMaxBytes: env.UPLOAD_MAX_BYTES ? Number(env.UPLOAD_MAX_BYTES) : undefined,
    workers: workerCount(env.WORKERS),
  };
}

/** WORKERS: a positive whole number; unset means one per core. */
function workerCount(value: string | undefined): number {
  if (value === undefined || value === '') return os.availableParallelism();
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new Error(`WORKERS must be a positive whole number, not "${value}"`);
  return n;
}
