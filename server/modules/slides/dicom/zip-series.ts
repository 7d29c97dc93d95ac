import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import { AppError } from '../../../http/errors.js';
import { MAX_INSTANCES } from '../../tiles/dicom/series-files.js';

/** The folder a DICOM zip's instances are extracted to, beside the zip (which is kept: downloads give it back). */
export const dicomFolderName = (zip: string) => `${zip}.dicom`;

/** Largest series a zip may unpack to, and how much larger than the zip it may be (JPEG frames barely compress: a bomb does). */
export const MAX_SERIES_BYTES = 256 * 2 ** 30;
export const MAX_EXPANSION = 200;

const ignored = (name: string) => name.endsWith('/') || name.split('/').some((p) => p === '__MACOSX' || p.startsWith('.')) || /(^|\/)DICOMDIR$/i.test(name);

async function openZip(file: string): Promise<yauzl.ZipFile> {
  return yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, strictFileNames: true });
}

/** Entries of the zip (litter left out), and the first name made to escape a folder (`..`, absolute, `\\`), if any. */
async function entriesOf(zip: yauzl.ZipFile): Promise<{ entries: { name: string; entry: yauzl.Entry }[]; unsafe: string | null }> {
  const entries: { name: string; entry: yauzl.Entry }[] = [];
  let unsafe: string | null = null;
  for await (const entry of zip.eachEntry()) {
    const name = yauzl.getFileNameLowLevel(entry.generalPurposeBitFlag, entry.fileNameRaw, entry.extraFields, true);
    if (yauzl.validateFileName(name)) unsafe ??= name;
    else if (!ignored(name)) entries.push({ name, entry });
  }
  return { entries, unsafe };
}

/**
 * Whether a zip holds DICOM files: its first file starts with the 128-byte preamble and `DICM`. Only that
 * entry's first bytes are inflated. A zip that cannot be read, or holds a Deep Zoom image, is not one.
 */
export async function zipHoldsDicom(file: string): Promise<boolean> {
  let zip: yauzl.ZipFile;
  try {
    zip = await openZip(file);
  } catch {
    return false;
  }
  try {
    // Unsafe names are judged by the importer the rest of the zip calls for (ours refuses the zip with a 422).
    const { entries } = await entriesOf(zip);
    if (entries.length === 0 || entries.some((e) => /\.dzi$/i.test(e.name))) return false;
    const stream = await zip.openReadStreamPromise(entries[0].entry);
    const head = await readUpTo(stream, 132);
    return head.length === 132 && head.toString('latin1', 128, 132) === 'DICM';
  } catch {
    return false;
  } finally {
    zip.close();
  }
}

/**
 * Unpacks a zip's instances into `dicomFolderName(zip)`, each under a name we make (`00001.dcm`…): no name
 * from the zip reaches the disk, and names that try to leave the folder refuse the whole zip. Sizes are checked
 * from the central directory before anything is written and again while inflating (yauzl validates entry sizes).
 * The folder appears complete or not at all (written under a temporary name, then renamed). `names` maps our
 * names back to the zip's, for messages about one file.
 */
export async function extractDicomZip(file: string): Promise<{ folder: string; names: Map<string, string> }> {
  const zipSize = (await fs.stat(file)).size;
  const zip = await openZip(file).catch(() => {
    throw new AppError(422, 'dicom.zip_unreadable');
  });
  const out = dicomFolderName(file);
  const partial = `${out}.${randomBytes(4).toString('hex')}.partial`;
  try {
    const { entries, unsafe } = await entriesOf(zip);
    if (unsafe) throw new AppError(422, 'dicom.zip_unsafe_path', { name: unsafe.slice(0, 200) });
    if (entries.length > MAX_INSTANCES) throw new AppError(422, 'dicom.too_many_instances', { count: entries.length, limit: MAX_INSTANCES });
    const total = entries.reduce((n, e) => n + e.entry.uncompressedSize, 0);
    if (total > MAX_SERIES_BYTES || total > MAX_EXPANSION * zipSize + 2 ** 20) {
      throw new AppError(422, 'dicom.zip_too_large', { bytes: total, limit: Math.min(MAX_SERIES_BYTES, MAX_EXPANSION * zipSize + 2 ** 20) });
    }
    await fs.mkdir(partial);
    let i = 0;
    const names = new Map<string, string>();
    for (const { entry, name: original } of entries) {
      const name = `${String(++i).padStart(5, '0')}.dcm`;
      names.set(name, original);
      await pipeline(await zip.openReadStreamPromise(entry), createWriteStream(path.join(partial, name), { flags: 'wx' }));
    }
    await fs.rename(partial, out);
    return { folder: out, names };
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError(422, 'dicom.zip_unreadable');
  } finally {
    zip.close();
    await fs.rm(partial, { recursive: true, force: true });
  }
}

async function readUpTo(stream: NodeJS.ReadableStream, n: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let got = 0;
  for await (const chunk of stream) {
    chunks.push(chunk as Buffer);
    got += (chunk as Buffer).length;
    if (got >= n) break;
  }
  (stream as NodeJS.ReadableStream & { destroy?: () => void }).destroy?.();
  return Buffer.concat(chunks).subarray(0, n);
}
