import { describe, expect, it } from 'vitest';
import { parseStorageConfig } from '../../server/storage/storage-url.js';

describe('STORAGE_URL', () => {
  it('is the data directory unset or file:', () => {
    expect(parseStorageConfig({})).toEqual({ kind: 'local' });
    expect(parseStorageConfig({ STORAGE_URL: 'file:' })).toEqual({ kind: 'local' });
  });

  it('names a bucket and prefix, with the S3_* settings', () => {
    expect(parseStorageConfig({
      STORAGE_URL: 's3://dsms-slides/site-a/', S3_ENDPOINT: 'http://minio:9000', S3_ACCESS_KEY_ID: 'k', S3_SECRET_ACCESS_KEY: 's',
    })).toEqual({ kind: 's3', bucket: 'dsms-slides', prefix: 'site-a', endpoint: 'http://minio:9000', region: 'us-east-1', accessKeyId: 'k', secretAccessKey: 's', forcePathStyle: true });
    const aws = parseStorageConfig({ STORAGE_URL: 's3://dsms-slides', S3_REGION: 'eu-west-1' });
    expect(aws).toMatchObject({ bucket: 'dsms-slides', prefix: '', region: 'eu-west-1', forcePathStyle: false });
    expect(parseStorageConfig({ STORAGE_URL: 's3://b-1/p', S3_FORCE_PATH_STYLE: 'false', S3_ENDPOINT: 'http://x' })).toMatchObject({ forcePathStyle: false });
  });

  it('refuses anything else at start', () => {
    for (const url of ['http://x', 's3://', 's3://UPPER/x', 's3://b-1/../x', '/data']) expect(() => parseStorageConfig({ STORAGE_URL: url })).toThrow(/STORAGE_URL/);
  });
});
