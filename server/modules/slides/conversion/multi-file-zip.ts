import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';

/**
 * Slides OpenSlide reads as several files (MRXS: `x.mrxs` beside its `x/` folder of Slidedat.ini and Data*.dat;
 * VMS/VMU: a key file naming JPEG files beside it) arrive as one zip. The zip is the original (downloads give it
 * back); the conversion job unpacks it beside itself, converts, and removes what it unpacked.
 * Unpacking is guarded like the Deep Zoom and DICOM imports: names that leave the folder (`..`, absolute,
 * backslashes) and links refuse the zip; so do more entries, or more bytes, than a slide can have, judged from the
 * central directory before anything is written (yauzl also checks each entry's inflated size against it).
 * Names are kept (the key files refer to the others by name) and resolved inside the folder only.
 */
export const MULTI_FILE_EXTENSIONS = new Set(['.mrxs', '.vms', '.vmu']);
export const MAX_ENTRIES = 20_000;
export const MAX_UNPACKED_BYTES = 512 * 2 ** 30;
/** Scanner data (JPEG, PNG, BMP in .dat files) barely compresses: a zip that inflates 200-fold is a bomb. */
export const MAX_EXPANSION = 200;

export type ZipVerdict =
  | { kind: 'slide'; entry: string; ext: string }
  | { kind: 'refused'; note: 'zip_unsafe_path' | 'zip_too_large' }
  | { kind: 'other' };

interface Listed { name: string; entry: yauzl.Entry }

const isDirectory = (name: string) => name.endsWith('/');
const isLink = (entry: yauzl.Entry) => ((entry.externalFileAttributes >>> 16) & 0o170000) === 0o120000;
const litter = (name: string) => name.split('/').some((p) => p === '__MACOSX' || p === '.DS_Store');

async function open(file: string): Promise<yauzl.ZipFile> {
  return yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, strictFileNames: true });
}

async function list(zip: yauzl.ZipFile): Promise<{ entries: Listed[]; unsafe: boolean }> {
  const entries: Listed[] = [];
  let unsafe = false;
  for await (const entry of zip.eachEntry()) {
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
    if (yauzl.validateFileName(name) || isLink(entry)) unsafe = true;
    else if (!litter(name)) entries.push({ name, entry });
    if (entries.length > MAX_ENTRIES) break;
  }
  return { entries, unsafe };
}

/** The one MRXS/VMS/VMU key file a zip holds, judged from its central directory alone; `other` for any other zip. */
export async function multiFileSlideIn(file: string): Promise<ZipVerdict> {
  const zip = await open(file).catch(() => null);
  if (!zip) return { kind: 'other' };
  try {
    const { entries, unsafe } = await list(zip);
    const keys = entries.filter((e) => !isDirectory(e.name) && MULTI_FILE_EXTENSIONS.has(path.posix.extname(e.name).toLowerCase()));
    if (keys.length !== 1) return { kind: 'other' };
    if (unsafe) return { kind: 'refused', note: 'zip_unsafe_path' };
    if (entries.length > MAX_ENTRIES || tooLarge(entries, (await fs.stat(file)).size)) return { kind: 'refused', note: 'zip_too_large' };
    return { kind: 'slide', entry: keys[0].name, ext: path.posix.extname(keys[0].name).toLowerCase() };
  } finally {
    zip.close();
  }
}

function tooLarge(entries: Listed[], zipBytes: number): boolean {
  const total = entries.reduce((n, e) => n + e.entry.uncompressedSize, 0);
  return total > MAX_UNPACKED_BYTES || total > MAX_EXPANSION * zipBytes + 2 ** 20;
}

export class UnsafeZipError extends Error {
  constructor(readonly note: 'zip_unsafe_path' | 'zip_too_large' | 'zip_not_slide') {
    super(note);
  }
}

/** Where a zip is unpacked for its conversion. */
export const unpackedFolder = (zip: string) => `${zip}.unpacked`;

/**
 * Unpacks the zip into `unpackedFolder(zip)` (complete or not at all: written under a temporary name and
 * renamed) and answers the key file's path there. Throws UnsafeZipError when the zip must be refused.
 */
export async function unpackMultiFileZip(file: string): Promise<{ folder: string; slide: string }> {
  const verdict = await multiFileSlideIn(file);
  if (verdict.kind === 'refused') throw new UnsafeZipError(verdict.note);
  if (verdict.kind === 'other') throw new UnsafeZipError('zip_not_slide');
  const out = unpackedFolder(file);
  await fs.rm(out, { recursive: true, force: true });
  const partial = `${out}.${randomBytes(4).toString('hex')}.partial`;
  const zip = await open(file);
  try {
    const { entries } = await list(zip);
    await fs.mkdir(partial);
    const root = path.resolve(partial);
    for (const { name, entry } of entries) {
      const target = path.resolve(root, ...name.split('/'));
      // validateFileName already refused `..` and absolute names; this keeps the promise whatever the name holds.
      if (target !== root && !target.startsWith(root + path.sep)) throw new UnsafeZipError('zip_unsafe_path');
      if (isDirectory(name)) { await fs.mkdir(target, { recursive: true }); continue; }
      await fs.mkdir(path.dirname(target), { recursive: true });
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(target, { flags: 'wx' }));
    }
    await fs.rename(partial, out);
    return { folder: out, slide: path.join(out, ...verdict.entry.split('/')) };
  } finally {
    zip.close();
    await fs.rm(partial, { recursive: true, force: true });
  }
}
