import { radiologyKind } from '../../../src/core/radiology.js';
import { AppError } from '../../http/errors.js';
import type { Storage } from '../../storage/storage.js';
import { DicomSeriesError } from '../tiles/dicom/errors.js';
import { readDicomHeader, type DicomHeader } from '../tiles/dicom/read-header.js';
import { isAttachmentKey } from '../upload/attachment-read.js';

/** What a case image that is a DICOM file keeps of its header (migration 0044). */
export interface DicomFacts {
  modality: string;
  series_uid: string | null;
  series_number: number | null;
  series_description: string | null;
  instance_number: number | null;
}

const text = (value: string | undefined, max: number) => (value ?? '').replace(/\0/g, '').trim().slice(0, max) || null;
const integer = (value: string | undefined) => {
  const n = Number.parseInt((value ?? '').trim(), 10);
  return Number.isSafeInteger(n) && Math.abs(n) < 2 ** 31 ? n : null;
};

/**
 * Reads an attachment's DICOM header (never its pixels: read-header.ts reads up to the Pixel Data element), or null
 * when the file is no DICOM file (no `DICM` after the preamble: a picture). A DICOM file of a modality the spec does
 * not take (§5: CR, DR, CT, MRI, DSA, RF, US), or one whose header cannot be read, is refused with a translated 422.
 */
export async function readDicomFacts(storage: Storage, key: string): Promise<DicomFacts | null> {
  if (!isAttachmentKey(key)) return null;
  const stat = await storage.stat(key);
  if (!stat || stat.folder) return null;
  let header: DicomHeader;
  try {
    header = await readDicomHeader((position, length) => storage.readRange(key, position, length), 0, stat.size);
  } catch (err) {
    if (err instanceof DicomSeriesError && err.code === 'not_dicom' && !(await hasDicomMagic(storage, key, stat.size))) return null;
    if (err instanceof DicomSeriesError) throw new AppError(422, 'case_image.dicom_unreadable');
    throw err;
  }
  const ds = header.dataSet;
  const modality = text(ds.string('x00080060'), 16);
  if (!radiologyKind(modality)) throw new AppError(422, 'case_image.modality_not_allowed', { modality: modality ?? '—' });
  return {
    modality: modality!.toUpperCase(),
    series_uid: text(ds.string('x0020000e'), 64),
    series_number: integer(ds.string('x00200011')),
    series_description: text(ds.string('x0008103e'), 200),
    instance_number: integer(ds.string('x00200013')),
  };
}

/** A file that says it is DICOM but does not parse is refused; one that does not say so is a picture. */
async function hasDicomMagic(storage: Storage, key: string, size: number): Promise<boolean> {
  if (size < 132) return false;
  return (await storage.readRange(key, 128, 4)).toString('latin1') === 'DICM';
}
