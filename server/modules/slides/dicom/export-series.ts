import { Readable } from 'node:stream';
import sharp from '../../tiles/vips.js';
import yazl from 'yazl';
import { hasColourMarker } from '../../tiles/dicom/instance.js';
import type { Level } from '../../tiles/slide-index.js';
import { canPassThrough, type RgbImage } from '../../tiles/tile-reader.js';
import type { SlideHandle, TileService } from '../../tiles/tile-service.js';
import { frameItem, instanceHeader, pixelDataEnd, pixelDataStart } from './instance-writer.js';
import { newUid } from './uids.js';

export interface ExportNames {
  /** The slide's name: the series description and the folder inside the zip. */
  name: string;
}

const QUALITY = 90;
const ASSOCIATED_TYPES = { label: 'LABEL', macro: 'OVERVIEW', thumbnail: 'THUMBNAIL' } as const;

/**
 * Any slide the tile server reads, as a DICOM WSI series (Supplement 145) in a zip: one TILED_FULL instance per
 * pyramid level, JPEG baseline frames copied from the stored tiles wherever a stored tile is a whole frame (no
 * re-encode), re-encoded (quality 90, padded white) where it is not (KFB's cropped edge tiles, missing tiles, other
 * compressions); label, macro and thumbnail as LABEL, OVERVIEW and THUMBNAIL instances. Nothing is held whole in
 * memory: the zip is stored (JPEG does not deflate) and written frame by frame as the client reads it.
 */
export function exportDicomSeries(service: TileService, handle: SlideHandle, names: ExportNames): Readable {
  const { index } = handle.slide;
  const study = newUid(), series = newUid(), frameOfReference = newUid();
  const now = new Date();
  const date = now.toISOString().slice(0, 10).replace(/-/g, ''), time = now.toISOString().slice(11, 19).replace(/:/g, '');
  const folder = safeName(names.name);
  const common = (instanceNumber: number) => ({
    SOPInstanceUID: newUid(), StudyInstanceUID: study, SeriesInstanceUID: series, FrameOfReferenceUID: frameOfReference,
    Modality: 'SM', Manufacturer: 'DSMS', SeriesDescription: names.name.slice(0, 64), ContainerIdentifier: names.name.slice(0, 64),
    PatientName: '', PatientID: '', StudyID: '', AccessionNumber: '', StudyDate: date, StudyTime: time, ContentDate: date, ContentTime: time,
    SeriesNumber: 1, InstanceNumber: instanceNumber, PositionReferenceIndicator: 'SLIDE_CORNER',
    ...(index.scanAt ? { AcquisitionDateTime: index.scanAt.replace(/[-:T]/g, '').replace(/Z$/, '').slice(0, 14) } : {}),
    BitsAllocated: 8, BitsStored: 8, HighBit: 7, PixelRepresentation: 0,
    LossyImageCompression: '01', LossyImageCompressionMethod: 'ISO_10918_1',
    TotalPixelMatrixFocalPlanes: 1, NumberOfOpticalPaths: 1, DimensionOrganizationType: 'TILED_FULL',
    OpticalPathSequence: [{ OpticalPathIdentifier: '1', ...(index.appMag ? { ObjectiveLensPower: index.appMag } : {}) }],
    FocusMethod: 'AUTO', ExtendedDepthOfField: 'NO', VolumetricProperties: 'VOLUME',
  });

  const zip = new yazl.ZipFile();
  const out = zip.outputStream as Readable;
  // An error while a frame is produced ends the download (the zip is cut short); it must not end the process.
  zip.on('error', (err: Error) => out.destroy(err));
  let n = 0;
  index.levels.forEach((level, i) => {
    const number = ++n;
    zip.addReadStream(Readable.from(levelInstance(service, handle, i, level, common(number))), `${folder}/level-${i}.dcm`, { compress: false });
  });
  for (const image of index.associated) {
    const number = ++n;
    zip.addReadStream(Readable.from(associatedInstance(service, handle, image.name, common(number))), `${folder}/${image.name}.dcm`, { compress: false });
  }
  zip.end();
  return out;
}

async function* levelInstance(service: TileService, handle: SlideHandle, i: number, level: Level, common: Record<string, unknown>): AsyncGenerator<Buffer> {
  const { index } = handle.slide;
  const frames = level.tilesAcross * level.tilesDown;
  const gray = level.samplesPerPixel === 1;
  const first = await frameJpeg(service, handle, i, level, 0, 0);
  const scaleX = index.width / level.width, scaleY = index.height / level.height;
  yield instanceHeader({
    ...common,
    ImageType: ['DERIVED', 'PRIMARY', 'VOLUME', i === 0 ? 'NONE' : 'RESAMPLED'],
    SamplesPerPixel: gray ? 1 : 3,
    PhotometricInterpretation: gray ? 'MONOCHROME2' : photometric(first),
    ...(gray ? {} : { PlanarConfiguration: 0 }),
    Rows: level.tileHeight, Columns: level.tileWidth, NumberOfFrames: frames,
    TotalPixelMatrixColumns: level.width, TotalPixelMatrixRows: level.height,
    ...(index.mppX && index.mppY ? {
      ImagedVolumeWidth: ds((index.width * index.mppX) / 1000), ImagedVolumeHeight: ds((index.height * index.mppY) / 1000), ImagedVolumeDepth: 0,
      SharedFunctionalGroupsSequence: [{ PixelMeasuresSequence: [{ PixelSpacing: [ds((index.mppY * scaleY) / 1000), ds((index.mppX * scaleX) / 1000)], SliceThickness: 0 }] }],
    } : {}),
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

async function* associatedInstance(service: TileService, handle: SlideHandle, name: 'label' | 'macro' | 'thumbnail', common: Record<string, unknown>): AsyncGenerator<Buffer> {
  const jpeg = (await service.associated(handle, name)).body;
  const { width, height } = await sharp(jpeg).metadata();
  yield instanceHeader({
    ...common,
    ImageType: ['DERIVED', 'PRIMARY', ASSOCIATED_TYPES[name], 'NONE'],
    SamplesPerPixel: 3, PhotometricInterpretation: photometric(jpeg), PlanarConfiguration: 0,
    Rows: height, Columns: width, NumberOfFrames: 1, TotalPixelMatrixColumns: width, TotalPixelMatrixRows: height,
    BurnedInAnnotation: name === 'label' ? 'YES' : 'NO', SpecimenLabelInImage: name === 'thumbnail' ? 'NO' : 'YES',
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

/** A decimal string (DS) holds 16 characters: 12 significant digits fit with sign, point and exponent. */
const ds = (v: number) => Number(v.toPrecision(12));

/** A folder name for the zip: the slide's name without separators or control characters (which unzippers mishandle). */
const safeName = (name: string) => [...name].map((c) => (c < ' ' || '\\/:*?"<>|'.includes(c) ? '_' : c)).join('').replace(/^\.+/, '_').slice(0, 100) || 'slide';

