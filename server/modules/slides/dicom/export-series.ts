import { Readable } from 'node:stream';
import sharp from '../../tiles/vips.js';
import yazl from 'yazl';
import { dateTimeValue, fitText, localDateTime } from '../../../../src/core/dicomValues.js';
import { hasColourMarker } from '../../tiles/dicom/instance.js';
import type { Level } from '../../tiles/slide-index.js';
import { canPassThrough, type RgbImage } from '../../tiles/tile-reader.js';
import type { SlideHandle, TileService } from '../../tiles/tile-service.js';
import type { ExportSubject } from './export-subject.js';
import { frameItem, instanceHeader, pixelDataEnd, pixelDataStart } from './instance-writer.js';
import { srgbProfile } from './srgb-profile.js';
import { patientStudyModules, slideLabelModule, specimenModule } from './subject-modules.js';
import { newUid } from './uids.js';
import { compressionRatio, equipmentModules, geometryModules, opticalPathModule, spacingOf } from './wsi-modules.js';

const QUALITY = 90;
const ASSOCIATED_TYPES = { label: 'LABEL', macro: 'OVERVIEW', thumbnail: 'THUMBNAIL' } as const;

type Dataset = Record<string, unknown>;

/**
 * Any slide the tile server reads, as a DICOM WSI series (Supplement 145) in a zip: one TILED_FULL instance per
 * pyramid level, JPEG baseline frames copied from the stored tiles wherever a stored tile is a whole frame (no
 * re-encode), re-encoded (quality 90, padded white) where it is not (KFB's cropped edge tiles, missing tiles, other
 * compressions); label, macro and thumbnail as LABEL, OVERVIEW and THUMBNAIL instances. Nothing is held whole in
 * memory: the zip is stored (JPEG does not deflate) and written frame by frame as the client reads it.
 * Every instance is what the VL Whole Slide Microscopy Image IOD requires (checked with dicom3tools' dciodvfy): the
 * case's patient, study and specimen (`subject`), text in UTF-8 (ISO_IR 192), the glass slide's label on the LABEL.
 */
export function exportDicomSeries(service: TileService, handle: SlideHandle, subject: ExportSubject): Readable {
  const { index } = handle.slide;
  const now = new Date();
  const { date, time } = localDateTime(now);
  // Instances of one export share these; each has its own SOP Instance UID.
  const shared: Dataset = {
    SpecificCharacterSet: 'ISO_IR 192',
    ...patientStudyModules(subject, now),
    StudyInstanceUID: newUid(), SeriesInstanceUID: newUid(), FrameOfReferenceUID: newUid(),
    // No Laterality: a slide is no paired body part (present but empty, dciodvfy refuses it).
    Modality: 'SM', SeriesNumber: 1, SeriesDescription: fitText(subject.slide.name, 64),
    PositionReferenceIndicator: 'SLIDE_CORNER',
    ...equipmentModules(),
    ...specimenModule(subject),
    AcquisitionContextSequence: [],
    DimensionOrganizationSequence: [{ DimensionOrganizationUID: newUid() }], DimensionOrganizationType: 'TILED_FULL',
    ContentDate: date, ContentTime: time,
    // Type 1: when the source does not say when it was scanned, when it reached us (it was scanned before).
    AcquisitionDateTime: dateTimeValue(index.scanAt) ?? dateTimeValue(subject.slide.createdAt) ?? `${date}${time}`,
    BitsAllocated: 8, BitsStored: 8, HighBit: 7, PixelRepresentation: 0,
    LossyImageCompression: '01', LossyImageCompressionMethod: 'ISO_10918_1',
    FocusMethod: 'AUTO', ExtendedDepthOfField: 'NO', VolumetricProperties: 'VOLUME',
  };
  const pyramid = newUid();
  const common = (instanceNumber: number): Dataset => ({ ...shared, SOPInstanceUID: newUid(), InstanceNumber: instanceNumber });
  const folder = safeName(subject.slide.name);

  const zip = new yazl.ZipFile();
  const out = zip.outputStream as Readable;
  // An error while a frame is produced ends the download (the zip is cut short); it must not end the process.
  zip.on('error', (err: Error) => out.destroy(err));
  let n = 0;
  index.levels.forEach((level, i) => {
    const number = ++n;
    zip.addReadStream(Readable.from(levelInstance(service, handle, i, level, { ...common(number), PyramidUID: pyramid })), `${folder}/level-${i}.dcm`, { compress: false });
  });
  // A label or macro the service cannot read (a TIFF page of a slide in object storage) is left out of the series.
  for (const image of index.associated.filter((a) => service.hasAssociated(handle, a.name))) {
    const number = ++n;
    const extra = image.name === 'label' ? slideLabelModule(subject) : {};
    zip.addReadStream(Readable.from(associatedInstance(service, handle, image.name, { ...common(number), ...extra })), `${folder}/${image.name}.dcm`, { compress: false });
  }
  zip.end();
  return out;
}

async function* levelInstance(service: TileService, handle: SlideHandle, i: number, level: Level, common: Dataset): AsyncGenerator<Buffer> {
  const { index } = handle.slide;
  const frames = level.tilesAcross * level.tilesDown;
  const gray = level.samplesPerPixel === 1;
  const first = await frameJpeg(service, handle, i, level, 0, 0);
  const imageType = ['DERIVED', 'PRIMARY', 'VOLUME', i === 0 ? 'NONE' : 'RESAMPLED'];
  // The stored tiles' bytes: what the frames take where they are copied, and near enough where they are re-encoded.
  const stored = level.tileByteCounts.reduce((sum, b) => sum + b, 0) || first.length * frames;
  const samples = gray ? 1 : 3;
  yield instanceHeader({
    ...common,
    ...geometryModules({ flavour: 'VOLUME', imageType, width: level.width, height: level.height, ...spacingOf(index, 'VOLUME', level.width, level.height) }),
    ...opticalPathModule(index, gray ? null : await srgbProfile()),
    SamplesPerPixel: samples,
    PhotometricInterpretation: gray ? 'MONOCHROME2' : photometric(first),
    ...(gray ? {} : { PlanarConfiguration: 0 }),
    Rows: level.tileHeight, Columns: level.tileWidth, NumberOfFrames: frames,
    LossyImageCompressionRatio: compressionRatio(level.tileHeight, level.tileWidth, samples, frames, stored),
    BurnedInAnnotation: 'NO', SpecimenLabelInImage: 'NO',
  });
  yield pixelDataStart();
  // TILED_FULL: frames run along each row, rows top to bottom.
  for (let f = 0; f < frames; f++) {
    const col = f % level.tilesAcross, row = Math.floor(f / level.tilesAcross);
    yield* frameItem(f === 0 ? first : await frameJpeg(service, handle, i, level, col, row));
  }
  yield pixelDataEnd();
}

/** Tile (col, row) as a whole frame: the stored JPEG when it is one, else decoded, padded white to the tile size, encoded. */
async function frameJpeg(service: TileService, { slide }: SlideHandle, i: number, level: Level, col: number, row: number): Promise<Buffer> {
  const t = row * level.tilesAcross + col;
  const interior = (col + 1) * level.tileWidth <= level.width && (row + 1) * level.tileHeight <= level.height;
  const present = level.tileByteCounts[t] > 0;
  if (present && canPassThrough(level) && (interior || !level.edgeTilesCropped)) return service.reader.storedJpeg(slide, i, col, row);
  const tile: RgbImage | null = present ? await service.reader.decodeTile(slide, i, col, row) : null;
  const tw = level.tileWidth, th = level.tileHeight;
  let canvas = sharp({ create: { width: tw, height: th, channels: 3, background: { r: 255, g: 255, b: 255 } } });
  if (tile) {
    const width = Math.min(tile.width, tw), height = Math.min(tile.height, th);
    const input = width === tile.width && height === tile.height
      ? tile.data
      : await sharp(tile.data, { raw: { width: tile.width, height: tile.height, channels: 3 } }).extract({ left: 0, top: 0, width, height }).raw().toBuffer();
    // Compositing adds an alpha channel: drop it so the raw buffer is the 3-channel tile it is read back as.
    canvas = sharp(await canvas.composite([{ input, raw: { width, height, channels: 3 }, left: 0, top: 0 }]).removeAlpha().raw().toBuffer(), { raw: { width: tw, height: th, channels: 3 } });
  }
  if (level.samplesPerPixel === 1) canvas = canvas.grayscale();
  return canvas.jpeg({ quality: QUALITY, chromaSubsampling: '4:2:0' }).toBuffer();
}

async function* associatedInstance(service: TileService, handle: SlideHandle, name: 'label' | 'macro' | 'thumbnail', common: Dataset): AsyncGenerator<Buffer> {
  const { index } = handle.slide;
  const jpeg = (await service.associated(handle, name)).body;
  const { width = 1, height = 1 } = await sharp(jpeg).metadata();
  const flavour = ASSOCIATED_TYPES[name];
  const imageType = ['DERIVED', 'PRIMARY', flavour, 'NONE'];
  yield instanceHeader({
    ...common,
    ...geometryModules({ flavour, imageType, width, height, ...spacingOf(index, flavour, width, height) }),
    ...opticalPathModule(index, await srgbProfile()),
    SamplesPerPixel: 3, PhotometricInterpretation: photometric(jpeg), PlanarConfiguration: 0,
    Rows: height, Columns: width, NumberOfFrames: 1,
    LossyImageCompressionRatio: compressionRatio(height, width, 3, 1, jpeg.length),
    // A label (and an overview, which shows it) may carry the patient's name: burned in, as de-identification must know.
    BurnedInAnnotation: name === 'thumbnail' ? 'NO' : 'YES', SpecimenLabelInImage: name === 'thumbnail' ? 'NO' : 'YES',
  });
  yield pixelDataStart();
  yield* frameItem(jpeg);
  yield pixelDataEnd();
}

/** YCbCr JPEG (what JFIF and unmarked streams are) is YBR_FULL_422; one marked RGB by Adobe's APP14 is RGB. */
function photometric(jpeg: Buffer): string {
  const head = jpeg.subarray(0, 256);
  return hasColourMarker(head) && !head.includes('JFIF', 0, 'latin1') ? 'RGB' : 'YBR_FULL_422';
}

/** A folder name for the zip: the slide's name without separators or control characters (which unzippers mishandle). */
const safeName = (name: string) => [...name].map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c)).join('').replace(/^\.+/, '_').slice(0, 100) || 'slide';

