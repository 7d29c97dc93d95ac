import { UPLOAD_CHUNK_BYTES, UPLOAD_MAX_RETRIES } from './constants';

/** Pure rules of the chunked slide upload (spec §4 upload task, §7 chunked upload, §9 constants). */

export interface ChunkRange {
  /** 1-based chunk number, as the server's `num`. */
  num: number;
  start: number;
  end: number;
}

/** Number of chunks of a file; an empty file is one empty chunk (as the server counts). */
export const chunkTotal = (size: number, chunkBytes = UPLOAD_CHUNK_BYTES) => Math.max(1, Math.ceil(size / chunkBytes));

/** Byte ranges of every chunk, 1..total; the last is what remains. */
export function chunkRanges(size: number, chunkBytes = UPLOAD_CHUNK_BYTES): ChunkRange[] {
  const total = chunkTotal(size, chunkBytes);
  const ranges: ChunkRange[] = [];
  for (let num = 1; num <= total; num++) {
    const start = (num - 1) * chunkBytes;
    ranges.push({ num, start, end: Math.min(size, start + chunkBytes) });
  }
  return ranges;
}

/**
 * The chunks still to send: the server's `lack` (when known) without those already in flight or
 * already acknowledged in this session; otherwise every chunk not done and not in flight. Ascending.
 */
export function chunksToSend(total: number, opts: { lack?: readonly number[] | null; done?: Iterable<number>; inFlight?: Iterable<number> }): number[] {
  const skip = new Set<number>([...(opts.done ?? []), ...(opts.inFlight ?? [])]);
  const candidates = opts.lack ? [...new Set(opts.lack)].filter((n) => Number.isInteger(n) && n >= 1 && n <= total).sort((a, b) => a - b) : range(total);
  return candidates.filter((n) => !skip.has(n));
}

const range = (total: number) => Array.from({ length: total }, (_, i) => i + 1);

/** Progress 0..100 (one decimal) from the server's fraction; never 100 before the server says done. */
export function progressPercent(fraction: unknown): number {
  const f = typeof fraction === 'string' ? Number(fraction) : fraction;
  if (typeof f !== 'number' || !Number.isFinite(f) || f <= 0) return 0;
  return Math.min(99.9, Math.floor(Math.min(f, 1) * 1000) / 10);
}

/** Progress from a count of chunks present (used before the server has answered, e.g. from `lack`). */
export const progressFromLack = (total: number, lack: readonly number[]) => progressPercent((total - lack.length) / total);

/** Spec §8/§9: a chunk may fail up to 5 times and be retried; the 6th failure marks the task as error. */
export function retryDecision(failures: number, maxRetries = UPLOAD_MAX_RETRIES): { retry: boolean; delayMs: number } {
  if (failures > maxRetries) return { retry: false, delayMs: 0 };
  return { retry: true, delayMs: Math.min(8000, 500 * 2 ** Math.max(0, failures - 1)) };
}

/** Task states of spec §4. */
export type UploadState = 'waiting' | 'hashing' | 'uploading' | 'stopping' | 'success' | 'error' | 'canceled';
export type UploadEvent = 'hash' | 'upload' | 'succeed' | 'fail' | 'cancel' | 'stopped' | 'retry';

const TRANSITIONS: Record<UploadState, Partial<Record<UploadEvent, UploadState>>> = {
  waiting: { hash: 'hashing', cancel: 'canceled', fail: 'error' },
  hashing: { upload: 'uploading', fail: 'error', cancel: 'stopping' },
  uploading: { succeed: 'success', fail: 'error', cancel: 'stopping' },
  stopping: { stopped: 'canceled' },
  success: {},
  error: { retry: 'waiting', cancel: 'canceled' },
  canceled: {},
};

/** The next state, or the same state when the event does not apply. */
export const nextState = (state: UploadState, event: UploadEvent): UploadState => TRANSITIONS[state][event] ?? state;

export const isFinished = (state: UploadState) => state === 'success' || state === 'error' || state === 'canceled';

/** Progress to show for a state: 0 until reported, 100 on success. */
export function progressFor(state: UploadState, reported: number): number {
  if (state === 'success') return 100;
  if (state === 'waiting' || state === 'hashing') return 0;
  return Math.max(0, Math.min(99.9, reported));
}

/** The spec §4 upload label of a state (i18n key under upload.state). */
export function stateLabelKey(state: UploadState): 'notUploaded' | 'uploading' | 'uploaded' | 'failed' | 'stopping' | 'canceled' {
  switch (state) {
    case 'waiting': return 'notUploaded';
    case 'hashing':
    case 'uploading': return 'uploading';
    case 'success': return 'uploaded';
    case 'error': return 'failed';
    case 'stopping': return 'stopping';
    case 'canceled': return 'canceled';
  }
}

/** File types the upload page accepts (spec §2 slide upload). */
export const UPLOAD_ACCEPT = ['.svs', '.tif', '.tiff', '.ndpi', '.kfb', '.mrxs', '.jpg', '.png', '.dzi', '.zip'] as const;

export const isAcceptedFile = (name: string) => UPLOAD_ACCEPT.some((ext) => name.toLowerCase().endsWith(ext));

/** Key of a resumable task: same name, size and whole-file MD5 is the same upload on the server. */
export const resumeKey = (name: string, size: number, totalMd5: string) => `upload:${totalMd5.toLowerCase()}:${size}:${name}`;
