import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { CompletedPart, S3Client } from '@aws-sdk/client-s3';
import { AppError } from '../http/errors.js';
import { checkKey, objectNotFound } from './errors.js';
import { MAX_OBJECT_BYTES, MAX_PARTS, MAX_RANGE_BYTES, PART_BYTES, refuseRange } from './limits.js';
import type { LocalCopy, ObjectStat, ObjectWriter, Storage } from './storage.js';
import { joinKey } from './storage-key.js';

export interface S3Settings {
  bucket: string;
  /** Keys are stored under this prefix (no leading or trailing `/`); empty: at the bucket's root. */
  prefix: string;
  endpoint?: string;
  region: string;
  accessKeyId?: string;
  secretAccessKey?: string;
  /** MinIO, Ceph RGW and s3rver want `endpoint/bucket/key`; AWS takes `bucket.endpoint/key` too. */
  forcePathStyle: boolean;
}

/** CopyObject copies at most 5 GiB in one call; a larger move is streamed through a multipart upload. */
const MAX_COPY_BYTES = 5 * 2 ** 30;

type Sdk = typeof import('@aws-sdk/client-s3');
/**
 * The AWS SDK, loaded on first use: a process on the data directory never loads it, and one on S3 loads it once
 * (it is tens of MiB and a few hundred ms of each process's start otherwise).
 */
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= import('@aws-sdk/client-s3'));

/**
 * S3-compatible object storage (MinIO, Ceph RGW, AWS S3, s3rver in tests): STORAGE_URL=s3://bucket/prefix. Reads are
 * ranged GETs (tiles go through block-cache.ts in front of them), a writer is a multipart upload whose parts are
 * sent as they fill (one part in memory, nothing on local disk), and a child tool that needs a file gets a staged
 * copy in the temp directory.
 */
export class S3Storage implements Storage {
  readonly kind = 's3' as const;
  #client: Promise<S3Client> | undefined;

  constructor(private readonly settings: S3Settings) {}

  /** The client, made on first use. */
  client(): Promise<S3Client> {
    this.#client ??= loadSdk().then(({ S3Client }) => this.newClient(S3Client));
    return this.#client;
  }

  /** The client and the SDK's command classes, loaded on first use. */
  private async api(): Promise<{ client: S3Client; s: Sdk }> {
    const [client, s] = await Promise.all([this.client(), loadSdk()]);
    return { client, s };
  }

  private newClient(S3Client: Sdk['S3Client']): S3Client {
    const settings = this.settings;
    return new S3Client({
      region: settings.region,
      endpoint: settings.endpoint,
      forcePathStyle: settings.forcePathStyle,
      credentials: settings.accessKeyId && settings.secretAccessKey
        ? { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey } : undefined,
      // Whole-object checksums over ranged and multipart traffic cost a hash per read; S3's own MD5 checks stay.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
  }

  private key(key: string): string {
    return joinKey(this.settings.prefix, checkKey(key));
  }

  private get bucket(): string {
    return this.settings.bucket;
  }

  async stat(key: string): Promise<ObjectStat | null> {
    try {
      const head = await this.api().then(({ client, s }) => client.send(new s.HeadObjectCommand({ Bucket: this.bucket, Key: this.key(key) })));
      return { size: head.ContentLength ?? 0, mtimeMs: head.LastModified?.getTime() ?? 0, tag: head.ETag ?? '' };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  async readRange(key: string, position: number, length: number): Promise<Buffer> {
    refuseRange(length, MAX_RANGE_BYTES);
    if (length === 0) return Buffer.alloc(0);
    try {
      const res = await this.api().then(({ client, s }) => client.send(new s.GetObjectCommand({ Bucket: this.bucket, Key: this.key(key), Range: `bytes=${position}-${position + length - 1}` })));
      return Buffer.from(await res.Body!.transformToByteArray());
    } catch (err) {
      // A range starting at or past the end: nothing there, as a file read past its end.
      if ((err as { name?: string }).name === 'InvalidRange' || status(err) === 416) return Buffer.alloc(0);
      if (isMissing(err)) throw objectNotFound(key);
      throw err;
    }
  }

  async readStream(key: string, range?: { start: number; end: number }): Promise<Readable> {
    try {
      const res = await this.api().then(({ client, s }) => client.send(new s.GetObjectCommand({
        Bucket: this.bucket, Key: this.key(key), Range: range ? `bytes=${range.start}-${range.end}` : undefined,
      })));
      return res.Body as Readable;
    } catch (err) {
      if (isMissing(err)) throw objectNotFound(key);
      throw err;
    }
  }

  async write(key: string, body: Buffer | Readable): Promise<ObjectStat> {
    // lib-storage sends a small body in one PUT and a stream as parts, a few at a time, each part buffered once.
    const { Upload } = await import('@aws-sdk/lib-storage');
    await new Upload({ client: await this.client(), params: { Bucket: this.bucket, Key: this.key(key), Body: body }, partSize: PART_BYTES, queueSize: 2 }).done();
    return (await this.stat(key))!;
  }

  async createWriter(key: string): Promise<ObjectWriter> {
    const Key = this.key(key);
    const { UploadId } = await this.api().then(({ client, s }) => client.send(new s.CreateMultipartUploadCommand({ Bucket: this.bucket, Key })));
    const parts: CompletedPart[] = [];
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let total = 0;
    const sendPart = async () => {
      if (parts.length >= MAX_PARTS) throw new AppError(413, 'storage.object_too_large', { max: MAX_OBJECT_BYTES });
      const Body = Buffer.concat(pending);
      pending = [];
      pendingBytes = 0;
      const PartNumber = parts.length + 1;
      const { ETag } = await this.api().then(({ client, s }) => client.send(new s.UploadPartCommand({ Bucket: this.bucket, Key, UploadId, PartNumber, Body })));
      parts.push({ ETag, PartNumber });
    };
    const abort = () => this.api().then(({ client, s }) => client.send(new s.AbortMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId }))).then(() => {}, () => {});
    return {
      write: async (chunk) => {
        total += chunk.length;
        if (total > MAX_OBJECT_BYTES) throw new AppError(413, 'storage.object_too_large', { max: MAX_OBJECT_BYTES });
        pending.push(chunk);
        pendingBytes += chunk.length;
        // Every part but the last must be at least 5 MiB: parts are sent whole, at PART_BYTES.
        if (pendingBytes >= PART_BYTES) await sendPart();
      },
      finish: async () => {
        // An empty object still needs one (empty) part.
        if (pendingBytes > 0 || parts.length === 0) await sendPart();
        await this.api().then(({ client, s }) => client.send(new s.CompleteMultipartUploadCommand({ Bucket: this.bucket, Key, UploadId, MultipartUpload: { Parts: parts } })));
        return (await this.stat(key))!;
      },
      abort,
    };
  }

  async list(prefix: string, limit = 10_000): Promise<{ key: string; size: number }[]> {
    const found: { key: string; size: number }[] = [];
    const base = this.key(prefix);
    const strip = this.settings.prefix ? this.settings.prefix.length + 1 : 0;
    let ContinuationToken: string | undefined;
    do {
      const page = await this.api().then(({ client, s }) => client.send(new s.ListObjectsV2Command({ Bucket: this.bucket, Prefix: `${base}/`, ContinuationToken, MaxKeys: Math.min(1000, limit - found.length) })));
      for (const o of page.Contents ?? []) found.push({ key: o.Key!.slice(strip), size: o.Size ?? 0 });
      ContinuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (ContinuationToken && found.length < limit);
    return found;
  }

  async remove(key: string): Promise<void> {
    await this.api().then(({ client, s }) => client.send(new s.DeleteObjectCommand({ Bucket: this.bucket, Key: this.key(key) })));
  }

  async move(from: string, to: string): Promise<void> {
    const stat = await this.stat(from);
    if (!stat) throw objectNotFound(from);
    if (await this.stat(to)) throw new AppError(409, 'storage.exists', { key: to });
    // The copy source is URL-encoded per segment, as S3 wants; a server that decodes it otherwise (s3rver decodes only
    // what decodeURI does: `+`, `#` stay escaped) answers NoSuchKey for a key that is there: then the bytes go through here.
    const copied = stat.size <= MAX_COPY_BYTES && await this.api().then(({ client, s }) => client.send(new s.CopyObjectCommand({
      Bucket: this.bucket, Key: this.key(to), CopySource: `${this.bucket}/${this.key(from).split('/').map(encodeURIComponent).join('/')}`,
    }))).then(() => true, (err: unknown) => {
      if (isMissing(err)) return false;
      throw err;
    });
    if (!copied) await this.write(to, await this.readStream(from));
    await this.remove(from);
  }

  async localCopy(key: string): Promise<LocalCopy> {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-stage-'));
    const file = path.join(dir, path.basename(key));
    const release = () => fs.rm(dir, { recursive: true, force: true });
    try {
      await pipeline(await this.readStream(key), createWriteStream(file));
    } catch (err) {
      await release();
      throw err;
    }
    return { path: file, release };
  }

  close(): void {
    void this.#client?.then((client) => client.destroy());
  }
}

const status = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const isMissing = (err: unknown) => {
  const name = (err as { name?: string }).name;
  return name === 'NotFound' || name === 'NoSuchKey' || status(err) === 404;
};
