import { Readable } from 'node:stream';
import yazl from 'yazl';
import type { SlideHandle, TileService } from '../../tiles/tile-service.js';
import type { ExportSubject } from './export-subject.js';
import { SlideSeries } from './series-instances.js';
import type { SeriesUids } from './uids.js';

/**
 * Any slide the tile server reads, as a DICOM WSI series (Supplement 145) in a zip: one TILED_FULL instance per
 * pyramid level, JPEG baseline frames copied from the stored tiles wherever a stored tile is a whole frame (no
 * re-encode), re-encoded (quality 90, padded white) where it is not (frames.ts); label, macro and thumbnail as
 * LABEL, OVERVIEW and THUMBNAIL instances. Nothing is held whole in memory: the zip is stored (JPEG does not
 * deflate) and written frame by frame as the client reads it.
 * Every instance is what the VL Whole Slide Microscopy Image IOD requires (checked with dicom3tools' dciodvfy): the
 * case's patient, study and specimen (`subject`), text in UTF-8 (ISO_IR 192), the glass slide's label on the LABEL.
 * Its UIDs are the slide's stable ones, the same DICOMweb serves (series-instances.ts).
 */
export function exportDicomSeries(service: TileService, handle: SlideHandle, subject: ExportSubject, uids: SeriesUids): Readable {
  const series = new SlideSeries(service, handle, uids);
  const folder = safeName(subject.slide.name);
  const zip = new yazl.ZipFile();
  const out = zip.outputStream as Readable;
  // An error while a frame is produced ends the download (the zip is cut short); it must not end the process.
  zip.on('error', (err: Error) => out.destroy(err));
  for (const instance of series.instances) {
    const name = 'level' in instance.source ? `level-${instance.source.level}` : instance.source.associated;
    zip.addReadStream(Readable.from(series.file(instance, subject)), `${folder}/${name}.dcm`, { compress: false });
  }
  zip.end();
  return out;
}

/** A folder name for the zip: the slide's name without separators or control characters (which unzippers mishandle). */
const safeName = (name: string) => [...name].map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c)).join('').replace(/^\.+/, '_').slice(0, 100) || 'slide';
