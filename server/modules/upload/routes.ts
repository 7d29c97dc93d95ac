import { createHash } from 'node:crypto';
import multipart from '@fastify/multipart';
import { ATTACHMENT_MAX_BYTES, UPLOAD_CHUNK_BYTES, UPLOAD_MD5_MAX_BYTES } from '../../../src/core/constants.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { acceptChunk, type ChunkContext } from './accept-chunk.js';
import { Assembler } from './assembler.js';
import { acceptSharedChunk, sweepSharedUploads, type SharedChunkContext } from './shared-chunks.js';
import type { Db } from '../../db/connect.js';
import { keepAttachment } from './attachment.js';
import { AttachmentQuota } from './attachment-quota.js';
import { moveLocalAttachments } from './attachment-move.js';
import { BufferPool } from './buffer-pool.js';
import { FinishClaims } from './finish-claim.js';
import { appStorage } from '../../storage/app-storage.js';
import type { BlockCacheConfig } from '../../storage/open-storage.js';
import type { StorageConfig } from '../../storage/storage-url.js';
import { UploadStore } from './upload-store.js';
import { mapDiskError } from './disk-errors.js';
import { KeyedLock } from './keyed-lock.js';
import { chunkBodyOf, CHUNK_BODY_OVERHEAD, registerChunkBodyParser, type ChunkBody } from './chunk-body.js';
import type { HeldChunk } from './receive.js';
import type { FastifyRequest } from 'fastify';
import type { UploadOwner } from './ownership.js';
import { okResponse } from '../../http/responses.js';

/** From the app's config (config.ts decides every default). */
export interface UploadConfig {
  /** Uploads live under `<dataDir>/uploads`. */
  dataDir: string;
  /** Largest slide /upload/large accepts; unset means no limit. */
  uploadMaxBytes?: number;
  /** What one user may keep in attachments, in MiB. */
  attachmentQuotaMb: number;
  /** Where finished files go (STORAGE_URL); the data directory when left out. */
  storage?: StorageConfig;
  blockCache?: BlockCacheConfig;
}

const STALE_TEMP_MS = 24 * 3600 * 1000;
/** Chunks held in memory at once, 2 MiB each: 32 MiB whatever the number of uploads or their size. */
const CHUNK_BUFFERS = 16;
const CHUNK_FIELDS_LOGGED = ['file_name', 'num', 'total_num', 'md5', 'total_md5', 'total_size'];

/**
 * POST /api/upload/large (chunked, resumable) and POST /api/upload/image (one attachment).
 * Multipart parsing is registered inside this plugin only, so no other route's body handling changes: the chunk
 * route reads its body whole into a pooled buffer and splits it in place (chunk-body.ts); attachments, up to
 * 200 MB, stream through @fastify/multipart (busboy) to disk.
 */
/**
 * Who sends chunks without a user session: a scanner (issue 16), found by its own key. Its uploads are owned by an
 * id of its own (the upload id names it), so only it can bind them.
 */
export interface AgentUploads {
  route: string;
  owner(request: FastifyRequest): Promise<UploadOwner>;
}

export function uploadRoutes(app: TypedApp, config: UploadConfig, db: Db, agent?: AgentUploads): void {
  if (config.uploadMaxBytes !== undefined && !(config.uploadMaxBytes > 0)) throw new Error('UPLOAD_MAX_BYTES must be a positive number of bytes');
  const { storage } = appStorage({ dataDir: config.dataDir, storage: config.storage, blockCache: config.blockCache });
  const store = new UploadStore(config.dataDir, storage);
  const assembler = new Assembler(store, UPLOAD_MD5_MAX_BYTES);
  const claims = new FinishClaims((id) => store.partsDir(id));
  const ctx: ChunkContext = { store, lock: new KeyedLock(), assembler, claims, maxFileBytes: config.uploadMaxBytes };
  const buffers = new BufferPool(CHUNK_BUFFERS, UPLOAD_CHUNK_BYTES + CHUNK_BODY_OVERHEAD);
  const quota = new AttachmentQuota(db, config.attachmentQuotaMb);
  // On object storage the chunks go there too, so that those of one file may reach any app node (shared-chunks.ts).
  const shared: SharedChunkContext | undefined = storage.kind === 's3'
    ? { db, storage, md5Limit: UPLOAD_MD5_MAX_BYTES, maxFileBytes: config.uploadMaxBytes } : undefined;
  const accept = (fields: Record<string, string>, chunk: HeldChunk | undefined, owner: UploadOwner) =>
    (shared ? acceptSharedChunk(shared, fields, chunk, owner) : acceptChunk(ctx, fields, chunk, owner));

  app.register(async (scope) => {
    scope.addHook('onClose', async () => {
      await assembler.close();
    });
    // Best effort and in the background: a leftover temp file costs disk space, never correctness.
    scope.addHook('onReady', async () => {
      void store.sweepTemp(STALE_TEMP_MS).catch((err: unknown) => scope.log.warn({ err }, 'upload temp sweep failed'));
      if (shared) void sweepSharedUploads(shared, STALE_TEMP_MS).catch((err: unknown) => scope.log.warn({ err }, 'shared upload sweep failed'));
      // Attachments kept on this node before they went to the bucket: moved there, so every node serves them.
      if (storage.kind === 's3') {
        void moveLocalAttachments(config.dataDir, storage).then(({ moved, conflicting }) => {
          if (moved) scope.log.info({ moved }, 'local attachments moved into object storage');
          if (conflicting.length) scope.log.warn({ conflicting: conflicting.slice(0, 20) }, 'local attachments left on this node: the bucket holds other bytes under their keys');
        }, (err: unknown) => scope.log.warn({ err }, 'moving local attachments into object storage failed'));
      }
    });

    /**
     * The chunk, hashed where it lies in the body buffer, on this thread: 2 MiB cost the CPU a few milliseconds
     * either way, and handing it to a hashing thread cost more than that in messages and wake-ups (profile of
     * scripts/bench/upload.ts); with WORKERS processes the chunks of one upload are spread over the cores anyway.
     */
    const held = (file: NonNullable<ChunkBody['file']>): HeldChunk => {
      const bytes = file.lease.buffer.subarray(file.start, file.end);
      const md5 = createHash('md5').update(bytes).digest('hex');
      return { bytes, md5, truncated: bytes.length > UPLOAD_CHUNK_BYTES, release: file.lease.release };
    };

    await scope.register(async (chunks) => {
      registerChunkBodyParser(chunks, buffers, UPLOAD_CHUNK_BYTES);
      chunks.post('/api/upload/large', {
        config: { access: { permission: 'slide_upload' } },
        schema: { tags: ['upload'], summary: 'One 2 MiB chunk of a slide file (fields file_name, num, total_num, md5, total_md5; file blob)', consumes: ['multipart/form-data'], response: okResponse() },
      }, async (request) => {
        const body = chunkBodyOf(request);
        if (!body) throw new AppError(400, 'upload.not_multipart');
        // What the operation log records of this write: the protocol fields, never the bytes.
        request.body = pick(body.fields, CHUNK_FIELDS_LOGGED);
        const chunk = body.file && held(body.file);
        try {
          return ok(await accept(body.fields, chunk, { userId: request.auth!.id, hospitalId: workingHospital(request) }));
        } catch (err) {
          return rethrowDiskError(err);
        } finally {
          chunk?.release();
        }
      });
      // The same protocol for a scanner: its key is checked by `agent.owner` before the chunk is looked at.
      if (agent) {
        chunks.post(agent.route, {
          config: { access: 'public' },
          schema: { tags: ['upload'], summary: 'One chunk of a scanned slide, sent by a scanner with its key (X-Scanner-Key)', consumes: ['multipart/form-data'], response: okResponse() },
        }, async (request) => {
          // Refused before the chunk is looked at; the pooled body buffer goes back when the response is sent.
          const owner = await agent.owner(request);
          const body = chunkBodyOf(request);
          if (!body) throw new AppError(400, 'upload.not_multipart');
          request.body = pick(body.fields, CHUNK_FIELDS_LOGGED);
          const chunk = body.file && held(body.file);
          try {
            return ok(await accept(body.fields, chunk, owner));
          } catch (err) {
            return rethrowDiskError(err);
          } finally {
            chunk?.release();
          }
        });
      }
    });

    await scope.register(async (images) => {
      await images.register(multipart, { throwFileSizeLimit: false });
      images.post('/api/upload/image', {
        config: { access: { permission: 'attachment_upload' } },
        schema: { tags: ['upload'], summary: 'One attachment of at most 200M (multipart file), within the user\'s quota (ATTACHMENT_QUOTA_MB)', consumes: ['multipart/form-data'], response: okResponse() },
      }, async (request) => ok(await keepAttachment(request, store, ATTACHMENT_MAX_BYTES, quota).catch(rethrowDiskError)));
    });
  });
}

function rethrowDiskError(err: unknown): never {
  throw mapDiskError(err);
}

function pick(fields: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => fields[k] !== undefined).map((k) => [k, fields[k]!]));
}
