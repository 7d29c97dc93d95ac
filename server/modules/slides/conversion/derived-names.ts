import { randomBytes } from 'node:crypto';
import { dicomFolderName } from '../dicom/zip-series.js';

/**
 * Files the tile server cannot read as they are, converted once to a pyramidal JPEG TIFF written beside the original
 * (`photo.png` → `photo.png.tiff`), which is kept and deleted with the slide.
 */
export const convertedName = (file: string) => `${file}.tiff`;

const CONVERTED = /\.(jpe?g|png|tiff?|btf|zip|dzi|ndpi|mrxs|scn|bif|vms|vmu|svslide|svs)\.tiff$/i;
const UNPACKED = /\.zip\.dicom$/i;

/** The original a converted TIFF (or an unpacked DICOM series) was made from (`photo.png.tiff` → `photo.png`), or null. */
export const convertedFrom = (file: string) => {
  if (CONVERTED.test(file)) return file.slice(0, -'.tiff'.length);
  return UNPACKED.test(file) ? file.slice(0, -'.dicom'.length) : null;
};

/** What ingest may make beside an original: its converted TIFF, or the folder a DICOM zip unpacks to. */
export const derivedNames = (file: string) => [convertedName(file), dicomFolderName(file)];

/** Everything a converted slide's original consists of: the file, and for a `.dzi` its `_files` folder too. */
export function originalParts(original: string): string[] {
  return /\.dzi$/i.test(original) ? [original, `${original.slice(0, -'.dzi'.length)}_files`] : [original];
}

/** A name of its own for a file being written, renamed to its real name once complete: no reader sees half a TIFF. */
export const partialName = (out: string) => `${out}.${randomBytes(4).toString('hex')}.partial`;
