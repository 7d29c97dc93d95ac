import type { Readable } from 'node:stream';

/** What a stored object is now: its size, when it last changed, and a tag that changes whenever its bytes do. */
export interface ObjectStat {
  size: number;
  mtimeMs: number;
  /** Local: inode, size and mtime; S3: the ETag. Part of every cache key, so a replaced object is never served stale. */
  tag: string;
  /** Local only: a folder (a DICOM series an operator put under slides/). Object storage has no folders. */
  folder?: boolean;
}

/** An object written in pieces (an upload's chunks, a conversion's output): S3 multipart upload, or a local file renamed into place. */
export interface ObjectWriter {
  write(chunk: Buffer): Promise<void>;
  /** Makes the object visible under its key, whole; before this nothing of it is. */
  finish(): Promise<ObjectStat>;
  /** Drops what was written; the key is left as it was. */
  abort(): Promise<void>;
}

/** A local file holding an object's bytes, for a child tool that needs a path (vips, OpenSlide, zip readers). */
export interface LocalCopy {
  path: string;
  /** Deletes a staged copy; the local backend's copy is the file itself and stays. */
  release(): Promise<void>;
}

/**
 * Where slide files, uploads, conversion outputs and thumbnails live. Keys are the stored paths of the slides table
 * (`slides/2026/05/a.svs`, relative to the data directory, `/`-separated: storage-key.ts). Two backends: the data
 * directory (local-storage.ts, what the app always did) and S3-compatible object storage (s3-storage.ts).
 * A missing object is a 404 with the translated `storage.not_found` (errors.ts), from every method but `stat`,
 * which answers null.
 */
export interface Storage {
  readonly kind: 'local' | 's3';
  stat(key: string): Promise<ObjectStat | null>;
  /** Up to `length` bytes at `position`; fewer only at the end of the object. */
  readRange(key: string, position: number, length: number): Promise<Buffer>;
  /** The object's bytes from `start` to `end` inclusive (all of it by default). */
  readStream(key: string, range?: { start: number; end: number }): Promise<Readable>;
  write(key: string, body: Buffer | Readable): Promise<ObjectStat>;
  createWriter(key: string): Promise<ObjectWriter>;
  /** Objects under a key prefix (a folder's files, locally), with their sizes; at most `limit`. */
  list(prefix: string, limit?: number): Promise<{ key: string; size: number }[]>;
  /** Removes the object (locally also a folder); a missing one is not an error. */
  remove(key: string): Promise<void>;
  /** Moves an object to a key that must not exist yet. */
  move(from: string, to: string): Promise<void>;
  localCopy(key: string): Promise<LocalCopy>;
  close(): void;
}
