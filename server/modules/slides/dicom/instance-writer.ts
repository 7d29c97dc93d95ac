import { createRequire } from 'node:module';
import type dcmjsModule from 'dcmjs';
import { JPEG_BASELINE } from '../../tiles/dicom/transfer-syntax.js';
import { WSI_SOP_CLASS } from '../../tiles/dicom/instance.js';

/** dcmjs, a large package only DICOM exports need: required by the first header written, not at every process's start. */
const dcmjsData = () => (createRequire(import.meta.url)('dcmjs') as typeof dcmjsModule).data;

/** DSMS's implementation class UID (2.25 form) and name in every file meta header it writes. */
const IMPLEMENTATION_UID = '2.25.160363950342592618427069530302128318563';
const IMPLEMENTATION_NAME = 'DSMS_WSI_EXPORT';

/**
 * A Part 10 file's header: preamble, file meta and the data set, everything before Pixel Data, written by dcmjs.
 * Pixel Data goes last in the data set (its tag is the highest we write), so the frames can follow as a stream.
 */
export function instanceHeader(dataset: Record<string, unknown>, transferSyntaxUid = JPEG_BASELINE): Buffer {
  const meta = {
    FileMetaInformationVersion: new Uint8Array([0, 1]).buffer,
    MediaStorageSOPClassUID: WSI_SOP_CLASS,
    MediaStorageSOPInstanceUID: dataset.SOPInstanceUID,
    TransferSyntaxUID: transferSyntaxUid,
    ImplementationClassUID: IMPLEMENTATION_UID,
    ImplementationVersionName: IMPLEMENTATION_NAME,
  };
  const { DicomDict, DicomMetaDictionary } = dcmjsData();
  const dict = new DicomDict(DicomMetaDictionary.denaturalizeDataset(meta));
  dict.dict = DicomMetaDictionary.denaturalizeDataset({ ...dataset, SOPClassUID: WSI_SOP_CLASS });
  return Buffer.from(dict.write());
}

/** Pixel Data (7FE0,0010) OB of undefined length, with an empty Basic Offset Table: frame offsets may pass 4 GiB. */
export function pixelDataStart(): Buffer {
  const b = Buffer.alloc(12 + 8);
  b.writeUInt16LE(0x7fe0, 0); b.writeUInt16LE(0x0010, 2);
  b.write('OB', 4, 'latin1'); b.writeUInt16LE(0, 6); b.writeUInt32LE(0xffffffff, 8);
  b.writeUInt16LE(0xfffe, 12); b.writeUInt16LE(0xe000, 14); b.writeUInt32LE(0, 16);
  return b;
}

/** One frame as one fragment: item header, the JPEG, and a pad byte when its length is odd (items are even). */
export function frameItem(jpeg: Buffer): Buffer[] {
  const pad = jpeg.length % 2;
  const header = Buffer.alloc(8);
  header.writeUInt16LE(0xfffe, 0); header.writeUInt16LE(0xe000, 2); header.writeUInt32LE(jpeg.length + pad, 4);
  return pad ? [header, jpeg, Buffer.alloc(1)] : [header, jpeg];
}

/** Sequence Delimitation Item: the end of encapsulated pixel data. */
export function pixelDataEnd(): Buffer {
  const b = Buffer.alloc(8);
  b.writeUInt16LE(0xfffe, 0); b.writeUInt16LE(0xe0dd, 2);
  return b;
}
