/** Messages between the uploader and md5.worker.ts. */
export interface HashRequest {
  file: Blob;
  chunkBytes?: number;
  md5MaxBytes?: number;
}

export type HashMessage =
  | { type: 'chunk'; num: number; md5: string }
  | { type: 'total'; md5: string }
  | { type: 'progress'; fraction: number }
  | { type: 'done' }
  | { type: 'error'; message: string };
