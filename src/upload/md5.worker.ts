/// <reference lib="webworker" />
import SparkMD5 from 'spark-md5';
import { UPLOAD_CHUNK_BYTES, UPLOAD_MD5_MAX_BYTES } from '../core/constants';
import type { HashRequest, HashMessage } from './md5Messages';

/**
 * Hashes a file off the main thread (spec §9): the MD5 of every 2 MiB chunk, and the MD5 of the first
 * 1 GiB (the whole file when smaller) for `total_md5`. Reads one chunk at a time, so memory stays flat;
 * `total` is posted as soon as the first 1 GiB is read, so the upload can start while later chunks hash.
 */
const post = (message: HashMessage) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(message);

self.onmessage = async (event: MessageEvent<HashRequest>) => {
  const { file, chunkBytes = UPLOAD_CHUNK_BYTES, md5MaxBytes = UPLOAD_MD5_MAX_BYTES } = event.data;
  try {
    const total = new SparkMD5.ArrayBuffer();
    const totalEnd = Math.min(file.size, md5MaxBytes);
    const chunks = Math.max(1, Math.ceil(file.size / chunkBytes));
    let totalSent = false;
    for (let num = 1; num <= chunks; num++) {
      const start = (num - 1) * chunkBytes;
      const end = Math.min(file.size, start + chunkBytes);
      const buffer = await file.slice(start, end).arrayBuffer();
      post({ type: 'chunk', num, md5: SparkMD5.ArrayBuffer.hash(buffer) });
      if (start < totalEnd) total.append(end <= totalEnd ? buffer : buffer.slice(0, totalEnd - start));
      if (!totalSent && end >= totalEnd) {
        post({ type: 'total', md5: total.end() });
        totalSent = true;
      }
      post({ type: 'progress', fraction: end / (file.size || 1) });
    }
    if (!totalSent) post({ type: 'total', md5: total.end() });
    post({ type: 'done' });
  } catch (error) {
    post({ type: 'error', message: error instanceof Error ? error.message : String(error) });
  }
};
