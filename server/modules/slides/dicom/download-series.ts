import fs from 'node:fs/promises';
import type { Readable } from 'node:stream';
import yazl from 'yazl';
import { listSeriesFolder } from '../../tiles/dicom/series-files.js';
import { convertedFrom } from '../conversion/derived-names.js';

/**
 * What a download of a DICOM series gives back: the zip it was uploaded as (kept beside the folder unpacked from
 * it), or, for a folder an operator put under slides/, its instances zipped as they are (stored, not deflated).
 * Null for anything that is not a series folder: the file itself is sent.
 */
export async function seriesDownload(served: string): Promise<{ file: string } | { zip: Readable } | null> {
  if (!(await fs.stat(served).catch(() => null))?.isDirectory()) return null;
  const original = convertedFrom(served);
  if (original && (await fs.stat(original).catch(() => null))?.isFile()) return { file: original };
  const zip = new yazl.ZipFile();
  for (const f of await listSeriesFolder(served)) zip.addFile(f.path, f.name, { compress: false });
  zip.end();
  return { zip: zip.outputStream as Readable };
}
