import { create } from 'zustand';
import type { UploadState } from '../core/uploadPlan';

/**
 * The upload tasks of this tab (spec §2 floating list, §4 upload task). Kept in a store so the list
 * survives navigation. This module is imported by the shell, so it holds data only; the uploader,
 * the worker and dexie live in lazy chunks.
 */
export interface UploadTask {
  id: string;
  name: string;
  size: number;
  state: UploadState;
  /** 0..100 */
  progress: number;
  error?: string;
  path?: string;
  /** Translated text of a failed binding call; the upload itself stays a success. */
  bindError?: string;
  /** The case the file will be bound to, shown on the task. */
  pathologyNumber?: string;
  /** The bound slide while its ingest or conversion job runs, until it is ready or failed. */
  slide?: SlideProgress;
}

/** A bound slide as the upload panel follows it: its status, its job's progress, and why it failed. */
export interface SlideProgress {
  id: number;
  /** ingesting | converting | ready | error | needs_conversion */
  status: string;
  progress: number | null;
  /** The failed job's translated reason. */
  error?: string;
}

/** An unfinished upload recorded in dexie local_cache, offered for resuming after a reload. */
export interface PendingResume {
  id: string;
  name: string;
  size: number;
  total_md5: string;
  progress: number;
  updated: string;
}

interface UploadStore {
  tasks: UploadTask[];
  pending: PendingResume[];
  upsert(task: UploadTask): void;
  patch(id: string, patch: Partial<UploadTask>): void;
  remove(id: string): void;
  setPending(pending: PendingResume[]): void;
}

/** localStorage flag: how many resumable uploads dexie holds, read by the shell without loading dexie. */
export const PENDING_FLAG_KEY = 'dsms-upload-pending';

export function writePendingFlag(count: number): void {
  try {
    if (count > 0) localStorage.setItem(PENDING_FLAG_KEY, String(count));
    else localStorage.removeItem(PENDING_FLAG_KEY);
  } catch { /* private mode: the list just will not offer resumes after a reload */ }
}

export const pendingFlag = (): number => {
  try {
    return Number(localStorage.getItem(PENDING_FLAG_KEY)) || 0;
  } catch {
    return 0;
  }
};

export const useUploads = create<UploadStore>((set) => ({
  tasks: [],
  pending: [],
  upsert: (task) => set((s) => ({ tasks: s.tasks.some((t) => t.id === task.id) ? s.tasks.map((t) => (t.id === task.id ? task : t)) : [...s.tasks, task] })),
  patch: (id, patch) => set((s) => ({ tasks: s.tasks.map((t) => (t.id === id ? { ...t, ...patch } : t)) })),
  remove: (id) => set((s) => ({ tasks: s.tasks.filter((t) => t.id !== id) })),
  setPending: (pending) => set({ pending }),
}));
