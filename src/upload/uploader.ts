import { isAxiosError } from 'axios';
import { api, displayText, unwrap } from '../api/client';
import { nextState, resumeKey, type UploadState } from '../core/uploadPlan';
import i18n from '../i18n';
import type { HashMessage, HashRequest } from './md5Messages';
import { sendChunks, UploadIncompleteError, type ChunkAnswer } from './sendChunks';
import { useUploads, writePendingFlag, type PendingResume } from './store';
import { watchSlide } from './slideWatch';

/**
 * The slide upload queue (spec §4 upload task, §7 chunked upload, §9 constants): two files at a time,
 * up to four chunks in flight per file, each chunk retried up to five times; the server's `lack` says
 * which chunks are still missing, so a file sent again resumes where it stopped.
 */
export const FILES_AT_ONCE = 2;

interface Runtime {
  file: File;
  abort: AbortController;
  worker?: Worker;
  key?: string;
  /** The resume record this file was picked for; its total_md5 must match. */
  expectKey?: string;
  /** The case the finished file is bound to; none: bound without a case (bound later in the uploaded list). */
  pathologyNumber?: string;
}

/** 4xx answers other than timeout and throttling will not get better by sending again. */
const retryableHttp = (error: unknown) => {
  if (!isAxiosError(error)) return false;
  const status = error.response?.status;
  return status === undefined || status >= 500 || status === 408 || status === 429;
};

const runtimes = new Map<string, Runtime>();
const queue: string[] = [];
let running = 0;
let seq = 0;

/** Called with the server path of each finished file (after the binding call). */
export const completeListeners = new Set<(path: string) => void>();

const t = (key: string, opts?: Record<string, unknown>) => i18n.t(key, opts);
const store = () => useUploads.getState();
const stateOf = (id: string) => store().tasks.find((task) => task.id === id)?.state;
const move = (id: string, event: Parameters<typeof nextState>[1], patch: Record<string, unknown> = {}) => {
  const state = stateOf(id);
  if (state) store().patch(id, { state: nextState(state, event), ...patch });
};

/** Adds files to the queue; `expectKey` ties a re-picked file to a resume record, `pathologyNumber` names their case. */
export function addFiles(files: Iterable<File>, expectKey?: string, pathologyNumber?: string): void {
  for (const file of files) {
    const id = `u${Date.now().toString(36)}-${(seq += 1)}`;
    runtimes.set(id, { file, abort: new AbortController(), expectKey, pathologyNumber });
    store().upsert({ id, name: file.name, size: file.size, state: 'waiting', progress: 0, pathologyNumber });
    queue.push(id);
  }
  pump();
}

/** Cancel: stops hashing and in-flight chunks and removes the task (spec §4); its resume record goes too. */
export function cancelTask(id: string): void {
  const rt = runtimes.get(id);
  const state = stateOf(id);
  const index = queue.indexOf(id);
  if (index >= 0) queue.splice(index, 1);
  if (rt && (state === 'hashing' || state === 'uploading')) {
    move(id, 'cancel');
    rt.abort.abort();
    rt.worker?.terminate();
    return; // run() finishes the removal
  }
  finishRemoval(id);
}

/** Puts a failed task back in the queue; the server's lack makes it continue where it stopped. */
export function retryTask(id: string): void {
  const rt = runtimes.get(id);
  if (!rt || stateOf(id) !== 'error') return;
  rt.abort = new AbortController();
  move(id, 'retry', { progress: 0, error: undefined });
  queue.push(id);
  pump();
}

/** Binds an uploaded file again after its binding failed (the upload itself succeeded: nothing is sent again). */
export function retryBind(id: string): void {
  const task = store().tasks.find((x) => x.id === id);
  if (!task?.path || !task.bindError || task.slide) return;
  store().patch(id, { bindError: undefined });
  void bind(id, task.path, task.pathologyNumber);
}

/** Removes a finished task from the list (success or error). */
export function dismissTask(id: string): void {
  finishRemoval(id, false);
  // A failed upload keeps its resume record: it is offered again in the list.
  void refreshPending();
}

function finishRemoval(id: string, dropRecord = true): void {
  const rt = runtimes.get(id);
  runtimes.delete(id);
  store().remove(id);
  if (dropRecord && rt?.key) void dropResume(rt.key);
}

function pump(): void {
  while (running < FILES_AT_ONCE && queue.length > 0) {
    const id = queue.shift()!;
    if (!runtimes.has(id)) continue;
    running += 1;
    void run(id).finally(() => {
      running -= 1;
      pump();
    });
  }
}

async function run(id: string): Promise<void> {
  const rt = runtimes.get(id)!;
  const { file } = rt;
  const signal = rt.abort.signal;
  try {
    move(id, 'hash');
    const hashes = startHashing(rt);
    const totalMd5 = await hashes.total;
    if (signal.aborted) throw new DOMException('aborted', 'AbortError');
    const key = resumeKey(file.name, file.size, totalMd5);
    if (rt.expectKey && rt.expectKey !== key) throw new Error(t('upload.resumeMismatch'));
    rt.key = key;
    const previous = store().pending.find((p) => p.id === key);
    await saveResume({ id: key, name: file.name, size: file.size, total_md5: totalMd5, progress: previous?.progress ?? 0, updated: new Date().toISOString() });
    move(id, 'upload', { progress: previous?.progress ?? 0 });

    const path = await sendChunks({
      file, totalMd5, chunkMd5: hashes.chunk, signal,
      startProgress: store().tasks.find((task) => task.id === id)?.progress ?? 0,
      post: (form) => unwrap<ChunkAnswer>(api.post('/upload/large', form, { allowMultiple: true, silent: true, signal })),
      retryable: retryableHttp,
      onProgress: (progress) => {
        store().patch(id, { progress });
        void saveProgress(key, progress);
      },
    });
    rt.worker?.terminate();
    move(id, 'succeed', { progress: 100, path });
    await dropResume(key);
    await bind(id, path, rt.pathologyNumber);
  } catch (error) {
    rt.worker?.terminate();
    if (signal.aborted || stateOf(id) === 'stopping') {
      move(id, 'stopped');
      finishRemoval(id);
      return;
    }
    const detail = error instanceof UploadIncompleteError ? '' : error instanceof Error && !isAxiosError(error) ? error.message : displayText(error, '');
    move(id, 'fail', { error: detail ? `${t('upload.failed')}: ${detail}` : t('upload.failed') });
  }
}

/** Binds the uploaded file as a slide; a failed binding is shown on the task, the upload stays a success. */
async function bind(id: string, path: string, pathologyNumber?: string): Promise<void> {
  try {
    // Several files finish at once and each is bound by its own call to the same address: the duplicate-request
    // lock (spec §7) would refuse all but the first. The server refuses a second bind of one file (409).
    const slide = await unwrap<{ id: number }>(api.post('/data/kfb/bind', pathologyNumber ? { path, pathology_number: pathologyNumber } : { path }, { silent: true, allowMultiple: true }));
    for (const listener of completeListeners) listener(path);
    window.dispatchEvent(new CustomEvent('dsms:slides-changed', { detail: { path } }));
    // Bound at once; the slide is read (and converted) by background jobs, which the task follows. Spec §4: once it
    // is ready the list refreshes and the task goes; a failed one stays, with its reason, until dismissed.
    watchSlide(id, slide.id, (settled) => {
      window.dispatchEvent(new CustomEvent('dsms:slides-changed', { detail: { path } }));
      if (settled.status === 'ready') setTimeout(() => dismissTask(id), 3000);
    });
  } catch (error) {
    const reason = displayText(error, '');
    store().patch(id, { bindError: reason ? `${t('upload.bindFailed')}: ${reason}` : t('upload.bindFailed') });
    for (const listener of completeListeners) listener(path);
  }
}

function startHashing(rt: Runtime): { total: Promise<string>; chunk: (num: number) => Promise<string> } {
  const chunkWaiters = new Map<number, { promise: Promise<string>; resolve(md5: string): void; reject(e: unknown): void }>();
  const waiter = (num: number) => {
    let w = chunkWaiters.get(num);
    if (!w) {
      let resolve!: (md5: string) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<string>((res, rej) => { resolve = res; reject = rej; });
      promise.catch(() => {});
      w = { promise, resolve, reject };
      chunkWaiters.set(num, w);
    }
    return w;
  };
  let resolveTotal!: (md5: string) => void;
  let rejectTotal!: (e: unknown) => void;
  const total = new Promise<string>((res, rej) => { resolveTotal = res; rejectTotal = rej; });
  const failAll = (e: unknown) => {
    rejectTotal(e);
    for (const w of chunkWaiters.values()) w.reject(e);
  };

  const worker = new Worker(new URL('./md5.worker.ts', import.meta.url), { type: 'module' });
  rt.worker = worker;
  worker.onmessage = (event: MessageEvent<HashMessage>) => {
    const m = event.data;
    if (m.type === 'chunk') waiter(m.num).resolve(m.md5);
    else if (m.type === 'total') resolveTotal(m.md5);
    else if (m.type === 'error') failAll(new Error(m.message));
  };
  worker.onerror = (event) => failAll(new Error(event.message || 'md5 worker failed'));
  rt.abort.signal.addEventListener('abort', () => failAll(new DOMException('aborted', 'AbortError')));
  worker.postMessage({ file: rt.file } satisfies HashRequest);
  return { total, chunk: (num) => waiter(num).promise };
}

// ---- resume records in dexie local_cache (spec §3 'pis' v16, table unchanged) ----

const RECORD_PREFIX = 'upload:';
const lastSaved = new Map<string, number>();

async function db() {
  return (await import('../db/pis')).pis;
}

async function saveResume(record: PendingResume): Promise<void> {
  try {
    await (await db()).local_cache.put(record);
  } catch { /* storage unavailable: the upload still runs, it just cannot be offered after a reload */ }
  await refreshPending();
}

async function saveProgress(key: string, progress: number): Promise<void> {
  const now = Date.now();
  if (now - (lastSaved.get(key) ?? 0) < 1000) return;
  lastSaved.set(key, now);
  try {
    await (await db()).local_cache.update(key, { progress, updated: new Date().toISOString() });
  } catch { /* as above */ }
}

async function dropResume(key: string): Promise<void> {
  lastSaved.delete(key);
  try {
    await (await db()).local_cache.delete(key);
  } catch { /* as above */ }
  await refreshPending();
}

/** Reads the resume records; those not being uploaded in this tab are offered in the floating list. */
export async function refreshPending(): Promise<void> {
  let records: PendingResume[] = [];
  try {
    const table = (await db()).local_cache;
    records = (await table.where('id').startsWith(RECORD_PREFIX).toArray()) as PendingResume[];
  } catch { /* as above */ }
  const active = new Set([...runtimes.values()].map((rt) => rt.key).filter(Boolean));
  writePendingFlag(records.length);
  store().setPending(records.filter((r) => !active.has(r.id)));
}

/** Forgets a resume record (the user does not want to continue it). */
export async function discardPending(key: string): Promise<void> {
  await dropResume(key);
}

export type { UploadState };
