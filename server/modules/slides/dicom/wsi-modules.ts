import fs from 'node:fs';
import os from 'node:os';
import { decimalString, fitText } from '../../../../src/core/dicomValues.js';
import { appPath } from '../../../paths.js';
import type { SlideIndex } from '../../tiles/slide-index.js';

type Dataset = Record<string, unknown>;
const code = (CodeValue: string, CodingSchemeDesignator: string, CodeMeaning: string) => ({ CodeValue, CodingSchemeDesignator, CodeMeaning });

/** Pixel spacing written when the source states none (µm): nominal, and said so in Derivation Description. */
export const NOMINAL_MPP = 1;
/**
 * The depth of the one focal plane we write (µm; Imaged Volume Depth, and Slice Thickness in mm): the files record
 * no section thickness or depth of field, and the standard wants a value above zero. 1 µm is about the depth of
 * field of a 20–40× objective.
 */
export const NOMINAL_DEPTH_UM = 1;
/** A standard glass slide, 25 × 76 mm: the nominal extent of a label or overview photograph, which no file measures. */
const SLIDE_MM = { short: 25, long: 76 };

let softwareVersion: string | undefined;
/** The app's version (package.json), what Software Versions names. */
function version(): string {
  softwareVersion ??= String((JSON.parse(fs.readFileSync(appPath('package.json'), 'utf8')) as { version?: string }).version ?? '0');
  return softwareVersion;
}

/**
 * General and Enhanced General Equipment: the equipment that made these instances is DSMS on this machine (model and
 * software version from the app, serial number the host's name); the scanner that made the source is not in the
 * slide index.
 */
export function equipmentModules(): Dataset {
  return {
    Manufacturer: 'DSMS',
    ManufacturerModelName: 'DSMS WSI export',
    DeviceSerialNumber: fitText(os.hostname() || 'unknown', 64),
    SoftwareVersions: fitText(version(), 64),
  };
}

/**
 * Optical Path: one path, brightfield, full-spectrum light, the source's objective power when known; colour
 * images carry the ICC profile their pixels are in (sRGB: what the tile server serves and the converters write).
 */
export function opticalPathModule(index: SlideIndex, iccProfile: Buffer | null): Dataset {
  return {
    NumberOfOpticalPaths: 1,
    OpticalPathSequence: [{
      OpticalPathIdentifier: '1',
      IlluminationTypeCodeSequence: [code('111744', 'DCM', 'Brightfield illumination')],
      IlluminationColorCodeSequence: [code('414298005', 'SCT', 'Full Spectrum')],
      ...(index.appMag ? { ObjectiveLensPower: decimalString(index.appMag) } : {}),
      ...(iccProfile ? { ICCProfile: toArrayBuffer(iccProfile), ColorSpace: 'SRGB' } : {}),
    }],
  };
}

export interface ImageGeometry {
  /** Image Type value 3. */
  flavour: 'VOLUME' | 'LABEL' | 'OVERVIEW' | 'THUMBNAIL';
  imageType: string[];
  /** The instance's total pixel matrix. */
  width: number;
  height: number;
  /** Millimetres per pixel of this instance, [row spacing (vertical), column spacing (horizontal)]. */
  spacing: [number, number];
  /** Whether the spacing is nominal (the source states no resolution): said in Derivation Description. */
  nominal: boolean;
}

/**
 * Millimetres per pixel of a pyramid level (or the thumbnail) `width × height` of the slide: from the source's MPP,
 * else nominal. A label or overview photograph is not on the slide's pixel grid: its size is nominal, a standard
 * glass slide's (a label is as wide as the slide is high, an overview shows the slide's length).
 */
export function spacingOf(index: SlideIndex, flavour: ImageGeometry['flavour'], width: number, height: number): { spacing: [number, number]; nominal: boolean } {
  if (flavour === 'LABEL' || flavour === 'OVERVIEW') {
    const mm = (flavour === 'LABEL' ? SLIDE_MM.short : SLIDE_MM.long) / Math.max(width, height);
    return { spacing: [mm, mm], nominal: true };
  }
  const known = !!(index.mppX && index.mppY);
  const mppX = known ? index.mppX! : NOMINAL_MPP, mppY = known ? index.mppY! : NOMINAL_MPP;
  return { spacing: [(mppY * index.height) / height / 1000, (mppX * index.width) / width / 1000], nominal: !known };
}

/**
 * What the Whole Slide Microscopy Image, Microscope Slide Layer Tile Organization and the shared functional groups
 * (Pixel Measures, Frame Type) say of one instance's geometry. The slide's coordinate system is the standard's:
 * along a row of the image the slide's +Y, down a column its +X, the image's origin at the slide corner (0, 0), so
 * the image lies on the slide; nothing we read says where on the glass the scan area lay. With this orientation
 * DICOMweb viewers (dicom-microscopy-viewer, Slim: they turn a slide to lie with its +X across the screen) show the
 * image as DSMS's own viewer does; the opposite one (−Y, −X) showed it upside down.
 */
export function geometryModules(g: ImageGeometry): Dataset {
  const [rowMm, colMm] = g.spacing;
  return {
    ImageType: g.imageType,
    TotalPixelMatrixColumns: g.width, TotalPixelMatrixRows: g.height,
    TotalPixelMatrixFocalPlanes: 1,
    TotalPixelMatrixOriginSequence: [{ XOffsetInSlideCoordinateSystem: '0', YOffsetInSlideCoordinateSystem: '0' }],
    ImageOrientationSlide: ['0', '1', '0', '1', '0', '0'],
    ImagedVolumeWidth: g.width * colMm, ImagedVolumeHeight: g.height * rowMm, ImagedVolumeDepth: NOMINAL_DEPTH_UM,
    SharedFunctionalGroupsSequence: [{
      PixelMeasuresSequence: [{ PixelSpacing: [decimalString(rowMm), decimalString(colMm)], SliceThickness: decimalString(NOMINAL_DEPTH_UM / 1000) }],
      WholeSlideMicroscopyImageFrameTypeSequence: [{ FrameType: g.imageType }],
      OpticalPathIdentificationSequence: [{ OpticalPathIdentifier: '1' }],
    }],
    ...(g.nominal ? { DerivationDescription: 'Pixel spacing nominal: the source states none' } : {}),
  };
}

/**
 * Lossy Image Compression Ratio (approximate, as the standard allows): the uncompressed size of `frames` frames over
 * the bytes their JPEG streams take.
 */
export function compressionRatio(rows: number, columns: number, samples: number, frames: number, compressedBytes: number): string {
  return decimalString(Math.max(1, Number(((rows * columns * samples * frames) / Math.max(1, compressedBytes)).toFixed(1))));
}

/** dcmjs writes binary values (OB) from ArrayBuffers. */
const toArrayBuffer = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength);
