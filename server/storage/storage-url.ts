import type { S3Settings } from './s3-storage.js';

/** Where storage is, from the environment: the data directory (STORAGE_URL unset or `file:`) or an S3 bucket. */
export type StorageConfig = { kind: 'local' } | ({ kind: 's3' } & S3Settings);

/**
 * STORAGE_URL=s3://bucket/prefix with S3_ENDPOINT, S3_REGION (default us-east-1), S3_ACCESS_KEY_ID,
 * S3_SECRET_ACCESS_KEY (else the SDK's own chain: environment, profile, instance role) and S3_FORCE_PATH_STYLE
 * (`1`/`true`; on by default with an endpoint, as MinIO and Ceph RGW want). Throws on anything else, at start.
 */
export function parseStorageConfig(env: NodeJS.ProcessEnv): StorageConfig {
  const url = env.STORAGE_URL?.trim();
  if (!url || url === 'file:' || url === 'file://') return { kind: 'local' };
  const match = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url);
  if (!match) throw new Error(`STORAGE_URL must be file: or s3://bucket/prefix, not "${url}"`);
  const prefix = (match[2] ?? '').replace(/^\/+|\/+$/g, '');
  if (prefix.split('/').some((s) => s === '.' || s === '..') || prefix.includes('//')) throw new Error(`STORAGE_URL has an invalid prefix: "${prefix}"`);
  return { kind: 's3', bucket: match[1]!, prefix, ...parseS3Connection(env) };
}

/** How the installation reaches its S3 endpoint, whatever bucket: STORAGE_URL's and the hospital areas' on S3. */
export type S3Connection = Omit<S3Settings, 'bucket' | 'prefix'>;

/** S3_ENDPOINT, S3_REGION, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_FORCE_PATH_STYLE, read even when STORAGE_URL is local. */
export function parseS3Connection(env: NodeJS.ProcessEnv): S3Connection {
  const endpoint = env.S3_ENDPOINT || undefined;
  const pathStyle = env.S3_FORCE_PATH_STYLE;
  return {
    endpoint,
    region: env.S3_REGION || 'us-east-1',
    accessKeyId: env.S3_ACCESS_KEY_ID || undefined,
    secretAccessKey: env.S3_SECRET_ACCESS_KEY || undefined,
    forcePathStyle: pathStyle === undefined || pathStyle === '' ? !!endpoint : /^(1|true|yes)$/i.test(pathStyle),
  };
}
