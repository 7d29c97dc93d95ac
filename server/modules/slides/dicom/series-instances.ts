import sharp from '../../tiles/vips.js';
import { dateTimeValue, fitText, localDateTime } from '../../../../src/core/dicomValues.js';
import { hasColourMarker, WSI_SOP_CLASS } from '../../tiles/dicom/instance.js';
import type { SlideHandle, TileService } from '../../tiles/tile-service.js';
import type { ExportSubject } from './export-subject.js';
import { frameJpeg } from './frames.js';
import { frameItem, instanceHeader, pixelDataEnd, pixelDataStart } from './instance-writer.js';
import { srgbProfile } from './srgb-profile.js';
import { patientStudyModules, slideLabelModule, specimenModule } from './subject-modules.js';
import type { SeriesUids } from './uids.js';
import { compressionRatio, equipmentModules, geometryModules, opticalPathModule, spacingOf } from './wsi-modules.js';

const ASSOCIATED_TYPES = { label: 'LABEL', macro: 'OVERVIEW', thumbnail: 'THUMBNAIL' } as const;

export type Dataset = Record<string, unknown>;
type AssociatedName = keyof typeof ASSOCIATED_TYPES;

/** One instance of a slide's series: a pyramid level (TILED_FULL, one frame per tile) or a label, macro or thumbnail. */
export interface SeriesInstance {
  /** Instance Number, 1-based: the levels from the largest (the level's index + 1), then the associated images. */
  number: number;
  uid: string;
  source: { level: number } | { associated: AssociatedName };
  frames: number;
  /** Image Type value 3. */
  flavour: 'VOLUME' | 'LABEL' | 'OVERVIEW' | 'THUMBNAIL';
}

/**
 * A slide as a DICOM WSI series (Supplement 145): what the zip export writes and DICOMweb serves, from the same
 * data sets. Listing the instances and reading frames needs only the slide; a data set also needs its `subject`. `uids` are the slide's stable UIDs (uids.ts); the content is dated by the slide's arrival, so the
 * same slide gives the same data sets on every call.
 */
export class SlideSeries {
  readonly instances: SeriesInstance[];

  constructor(private readonly service: TileService, private readonly handle: SlideHandle, readonly uids: SeriesUids) {
    const { index } = handle.slide;
    // A level the size of a larger one (KFB stores its last, 1-pixel level twice) is left out: one pyramid level is
    // one instance, and viewers refuse two VOLUME instances of one size that are no concatenation.
    const levels = index.levels.flatMap((level, i): SeriesInstance[] => (
      index.levels.slice(0, i).some((l) => l.width === level.width && l.height === level.height)
        ? []
        : [{ number: i + 1, uid: uids.instance(i + 1), source: { level: i }, frames: level.tilesAcross * level.tilesDown, flavour: 'VOLUME' }]
    ));
    // A label or macro the service cannot read (a TIFF page of a slide in object storage) is left out of the series.
    const associated = index.associated.filter((a) => service.hasAssociated(handle, a.name)).map((a, k): SeriesInstance => {
      const number = index.levels.length + k + 1;
      return { number, uid: uids.instance(number), source: { associated: a.name }, frames: 1, flavour: ASSOCIATED_TYPES[a.name] };
    });
    this.instances = [...levels, ...associated];
  }

  /** What every instance of the series shares: patient, study, series, equipment, specimen, the pixel format. */
  private shared(subject: ExportSubject): Dataset {
    const { index } = this.handle.slide;
    const { uids } = this;
    const { date, time } = localDateTime(stableDate(subject.slide.createdAt));
    return {
      SpecificCharacterSet: 'ISO_IR 192',
      ...studyModules(subject),
      StudyInstanceUID: uids.study, SeriesInstanceUID: uids.series, FrameOfReferenceUID: uids.frameOfReference,
      // No Laterality: a slide is no paired body part (present but empty, dciodvfy refuses it).
      Modality: 'SM', SeriesNumber: 1, SeriesDescription: fitText(subject.slide.name, 64),
      PositionReferenceIndicator: 'SLIDE_CORNER',
      ...equipmentModules(),
      ...specimenModule(subject, uids.specimen),
      AcquisitionContextSequence: [],
      DimensionOrganizationSequence: [{ DimensionOrganizationUID: uids.dimensionOrganization }], DimensionOrganizationType: 'TILED_FULL',
      ContentDate: date, ContentTime: time,
      // Type 1: when the source does not say when it was scanned, when it reached us (it was scanned before).
      AcquisitionDateTime: dateTimeValue(index.scanAt) ?? dateTimeValue(subject.slide.createdAt) ?? `${date}${time}`,
      BitsAllocated: 8, BitsStored: 8, HighBit: 7, PixelRepresentation: 0,
      LossyImageCompression: '01', LossyImageCompressionMethod: 'ISO_10918_1',
      FocusMethod: 'AUTO', ExtendedDepthOfField: 'NO', VolumetricProperties: 'VOLUME',
    };
  }

  instance(uid: string): SeriesInstance | undefined {
    return this.instances.find((i) => i.uid === uid);
  }

  /** The instance's data set: everything but Pixel Data (and the file meta). Reads one frame (or the associated image). */
  async dataset(instance: SeriesInstance, subject: ExportSubject): Promise<Dataset> {
    const common = { ...this.shared(subject), SOPClassUID: WSI_SOP_CLASS, SOPInstanceUID: instance.uid, InstanceNumber: instance.number };
    const { index } = this.handle.slide;
    if ('associated' in instance.source) {
      const name = instance.source.associated;
      const jpeg = await this.frame(instance, 1);
      const { width = 1, height = 1 } = await sharp(jpeg).metadata();
      const flavour = instance.flavour;
      const imageType = ['DERIVED', 'PRIMARY', flavour, 'NONE'];
      return {
        ...common,
        ...(name === 'label' ? slideLabelModule(subject) : {}),
        ...geometryModules({ flavour, imageType, width, height, ...spacingOf(index, flavour, width, height) }),
        ...opticalPathModule(index, await srgbProfile()),
        SamplesPerPixel: 3, PhotometricInterpretation: photometric(jpeg), PlanarConfiguration: 0,
        Rows: height, Columns: width, NumberOfFrames: 1,
        LossyImageCompressionRatio: compressionRatio(height, width, 3, 1, jpeg.length),
        // A label (and an overview, which shows it) may carry the patient's name: burned in, as de-identification must know.
        BurnedInAnnotation: name === 'thumbnail' ? 'NO' : 'YES', SpecimenLabelInImage: name === 'thumbnail' ? 'NO' : 'YES',
      };
    }
    const i = instance.source.level;
    const level = index.levels[i];
    const gray = level.samplesPerPixel === 1;
    const first = await this.frame(instance, 1);
    const imageType = ['DERIVED', 'PRIMARY', 'VOLUME', i === 0 ? 'NONE' : 'RESAMPLED'];
    // The stored tiles' bytes: what the frames take where they are copied, and near enough where they are re-encoded.
    const stored = level.tileByteCounts.reduce((sum, b) => sum + b, 0) || first.length * instance.frames;
    const samples = gray ? 1 : 3;
    return {
      ...common,
      ...geometryModules({ flavour: 'VOLUME', imageType, width: level.width, height: level.height, ...spacingOf(index, 'VOLUME', level.width, level.height) }),
      ...opticalPathModule(index, gray ? null : await srgbProfile()),
      SamplesPerPixel: samples,
      PhotometricInterpretation: gray ? 'MONOCHROME2' : photometric(first),
      ...(gray ? {} : { PlanarConfiguration: 0 }),
      Rows: level.tileHeight, Columns: level.tileWidth, NumberOfFrames: instance.frames,
      LossyImageCompressionRatio: compressionRatio(level.tileHeight, level.tileWidth, samples, instance.frames, stored),
      BurnedInAnnotation: 'NO', SpecimenLabelInImage: 'NO',
    };
  }

  /** Frame `n` (1-based; TILED_FULL: along each row, rows top to bottom) as a JPEG baseline stream. */
  async frame(instance: SeriesInstance, n: number): Promise<Buffer> {
    if (!Number.isInteger(n) || n < 1 || n > instance.frames) throw new RangeError(`frame ${n} of ${instance.frames}`);
    if ('associated' in instance.source) return (await this.service.associated(this.handle, instance.source.associated)).body;
    const i = instance.source.level;
    const level = this.handle.slide.index.levels[i];
    const f = n - 1;
    return frameJpeg(this.service, this.handle, i, level, f % level.tilesAcross, Math.floor(f / level.tilesAcross));
  }

  /** The instance as a Part 10 file, produced frame by frame as it is read: nothing of it is held whole. */
  async* file(instance: SeriesInstance, subject: ExportSubject): AsyncGenerator<Buffer> {
    yield instanceHeader(await this.dataset(instance, subject));
    yield pixelDataStart();
    for (let n = 1; n <= instance.frames; n++) yield* frameItem(await this.frame(instance, n));
    yield pixelDataEnd();
  }
}

/** A stored time as a date; the epoch when there is none (a stable date, so the data sets are the same on every call). */
function stableDate(at: string | null | undefined): Date {
  const date = at ? new Date(at) : null;
  return date && !Number.isNaN(date.getTime()) ? date : new Date(0);
}

/**
 * Patient and study of the slide's series; a case never registered is dated by its making, so each of its slides
 * (each series of the study) says the same. QIDO's study answers come from here too.
 */
export function studyModules(subject: ExportSubject): Dataset {
  return patientStudyModules(subject, stableDate(subject.case ? subject.case.createdAt : subject.slide.createdAt));
}

/** YCbCr JPEG (what JFIF and unmarked streams are) is YBR_FULL_422; one marked RGB by Adobe's APP14 is RGB. */
function photometric(jpeg: Buffer): string {
  const head = jpeg.subarray(0, 256);
  return hasColourMarker(head) && !head.includes('JFIF', 0, 'latin1') ? 'RGB' : 'YBR_FULL_422';
}
