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
  };
}
