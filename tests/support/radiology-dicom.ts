import dcmjs from 'dcmjs';

/**
 * Small radiology DICOM files written with dcmjs, as a modality would send them: uncompressed (Explicit VR Little
 * Endian), 16-bit monochrome with Pixel Spacing, Rescale Slope/Intercept and a window in the header.
 */
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
export const CT_IMAGE = '1.2.840.10008.5.1.4.1.1.2';
export const CR_IMAGE = '1.2.840.10008.5.1.4.1.1.1';
const SM_IMAGE = '1.2.840.10008.5.1.4.1.1.77.1.6';

export interface RadiologyFile { name: string; bytes: Buffer; seriesUid: string; sopUid: string }

let counter = 0;
const uid = (tag: string) => `2.25.${Date.now()}${process.pid}${tag}${++counter}`;

function write(dataset: Record<string, unknown>, pixels: Uint16Array): Buffer {
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: dataset.SOPClassUID,
    MediaStorageSOPInstanceUID: dataset.SOPInstanceUID,
    TransferSyntaxUID: EXPLICIT_LE,
    ImplementationClassUID: '2.25.1234567890',
  };
  const { DicomDict, DicomMetaDictionary } = dcmjs.data;
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  const pixelBytes = pixels.buffer.slice(pixels.byteOffset, pixels.byteOffset + pixels.byteLength);
  dict.dict = DicomMetaDictionary.denaturalizeDataset({ ...dataset, PixelData: [pixelBytes], _vrMap: { PixelData: 'OW' } });
  return Buffer.from(dict.write());
}

const common = (modality: string, seriesUid: string, studyUid: string, sopClass: string) => ({
  SpecificCharacterSet: 'ISO_IR 192', SOPClassUID: sopClass, SOPInstanceUID: uid('9'), StudyInstanceUID: studyUid, SeriesInstanceUID: seriesUid,
  Modality: modality, PatientName: 'E2E^Radiology', PatientID: 'E2E-RAD', StudyDate: '20260101', StudyTime: '120000', AccessionNumber: '',
  SamplesPerPixel: 1, PhotometricInterpretation: 'MONOCHROME2', BitsAllocated: 16, BitsStored: 12, HighBit: 11, PixelRepresentation: 0,
});

/**
 * What the CT's slices hold, in stored values (HU + 1024): a gradient along x from −1000 to +1000 HU, a bright
 * frame on the image's edge (its extent can be found on screen) and a bright square whose place moves with the slice.
 */
export function ctPixel(x: number, y: number, slice: number, size: number): number {
  const hu = x === 0 || y === 0 || x === size - 1 || y === size - 1 ? 2000
    : x >= 8 + slice * 8 && x < 16 + slice * 8 && y >= 24 && y < 40 ? 1500
      : Math.round(-1000 + (2000 * x) / (size - 1));
  return hu + 1024;
}

/** A CT series of `slices` axial slices of size×size, 2.5 mm apart, with Pixel Spacing `spacing` mm. */
export function ctSeries(opts: { slices?: number; size?: number; spacing?: number; description?: string } = {}): RadiologyFile[] {
  const { slices = 5, size = 64, spacing = 0.5, description = 'Chest CT' } = opts;
  const seriesUid = uid('1');
  const studyUid = uid('2');
  return Array.from({ length: slices }, (_, k) => {
    const pixels = new Uint16Array(size * size);
    for (let y = 0; y < size; y++) for (let x = 0; x < size; x++) pixels[y * size + x] = ctPixel(x, y, k, size);
    const dataset = {
      ...common('CT', seriesUid, studyUid, CT_IMAGE),
      SeriesDescription: description, SeriesNumber: 2, InstanceNumber: k + 1,
      Rows: size, Columns: size, PixelSpacing: [spacing, spacing], SliceThickness: 2.5,
      ImagePositionPatient: [0, 0, k * 2.5], ImageOrientationPatient: [1, 0, 0, 0, 1, 0], SliceLocation: k * 2.5,
      RescaleIntercept: -1024, RescaleSlope: 1, RescaleType: 'HU', WindowCenter: 40, WindowWidth: 400,
    };
    return { name: `ct-${k + 1}.dcm`, bytes: write(dataset as Record<string, unknown>, pixels), seriesUid, sopUid: dataset.SOPInstanceUID };
  });
}

/** One CR image (width×height, a vertical gradient), Pixel Spacing 0.2 mm. */
export function crImage(opts: { width?: number; height?: number; modality?: string; description?: string } = {}): RadiologyFile {
  const { width = 64, height = 48, modality = 'CR', description = 'Chest PA' } = opts;
  const seriesUid = uid('3');
  const pixels = new Uint16Array(width * height);
  for (let y = 0; y < height; y++) for (let x = 0; x < width; x++) pixels[y * width + x] = Math.round((4095 * y) / (height - 1));
  const dataset = {
    ...common(modality, seriesUid, uid('4'), modality === 'CR' ? CR_IMAGE : SM_IMAGE),
    SeriesDescription: description, SeriesNumber: 1, InstanceNumber: 1,
    Rows: height, Columns: width, PixelSpacing: [0.2, 0.2], ImagerPixelSpacing: [0.2, 0.2],
    RescaleIntercept: 0, RescaleSlope: 1, WindowCenter: 2048, WindowWidth: 4096,
  };
  return { name: `${modality.toLowerCase()}.dcm`, bytes: write(dataset as Record<string, unknown>, pixels), seriesUid, sopUid: dataset.SOPInstanceUID };
}
