/** What the upload worker thread is asked, and answers. Every request carries a key its answer repeats. */
export type ToWorker =
  | { op: 'open'; job: number; data: string; md5Limit: number; chunkBytes: number }
  | { op: 'add'; job: number; count: number }
  /** The file is complete at `size` bytes (trimmed): hash the rest and answer its MD5. */
  | { op: 'finish'; job: number; size: number }
  | { op: 'abort'; job: number };

export type FromWorker =
  | { job: number; ok: true; md5?: string }
  | { job: number; ok: false; code?: string; message: string };
