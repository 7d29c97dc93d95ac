import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
// s3rver ships no types: what the tests use of it is declared here.
// @ts-expect-error no declaration file
import S3rver from 's3rver';
import type { S3Settings } from '../../server/storage/s3-storage.js';

interface S3rverInstance { run(): Promise<AddressInfo>; close(): Promise<void> }

export interface LoopbackS3 {
  settings: S3Settings;
  /** The environment a server process reads the same settings from (config.ts). */
  env: Record<string, string>;
  close(): Promise<void>;
}

/**
 * A real S3-protocol server (s3rver) on a loopback port, its objects in a temp directory, with one bucket:
 * what the storage suite, the API tests on S3 and the S3 tile bench run against.
 */
export async function startLoopbackS3(bucket = 'dsms-test', prefix = 'site'): Promise<LoopbackS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-s3rver-'));
  const server = new (S3rver as new (o: object) => S3rverInstance)({
    address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: bucket }],
  });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  // s3rver accepts any key pair it is given; signed requests are still checked for form.
  const settings: S3Settings = { bucket, prefix, endpoint, region: 'us-east-1', accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER', forcePathStyle: true };
  return {
    settings,
    env: { STORAGE_URL: `s3://${bucket}/${prefix}`, S3_ENDPOINT: endpoint, S3_REGION: 'us-east-1', S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER', S3_FORCE_PATH_STYLE: 'true' },
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
