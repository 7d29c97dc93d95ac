/**
 * The transfer syntaxes a whole-slide series may use, and what each means for its frames: stored as they are
 * (native, uncompressed pixels) or encapsulated fragments holding one compressed image each.
 */
export type FrameCodec = 'raw' | 'jpeg' | 'jpeg2000';

export interface TransferSyntax {
  uid: string;
  codec: FrameCodec;
  encapsulated: boolean;
}

const SYNTAXES: readonly TransferSyntax[] = [
  { uid: '1.2.840.10008.1.2', codec: 'raw', encapsulated: false }, // implicit VR little endian
  { uid: '1.2.840.10008.1.2.1', codec: 'raw', encapsulated: false }, // explicit VR little endian
  { uid: '1.2.840.10008.1.2.4.50', codec: 'jpeg', encapsulated: true }, // JPEG baseline (process 1): what browsers show as is
  { uid: '1.2.840.10008.1.2.4.90', codec: 'jpeg2000', encapsulated: true }, // JPEG 2000 lossless only
  { uid: '1.2.840.10008.1.2.4.91', codec: 'jpeg2000', encapsulated: true }, // JPEG 2000
  { uid: '1.2.840.10008.1.2.4.201', codec: 'jpeg2000', encapsulated: true }, // High-Throughput JPEG 2000 lossless
  { uid: '1.2.840.10008.1.2.4.202', codec: 'jpeg2000', encapsulated: true }, // HTJ2K with RPCL lossless
  { uid: '1.2.840.10008.1.2.4.203', codec: 'jpeg2000', encapsulated: true }, // HTJ2K
];

export const JPEG_BASELINE = '1.2.840.10008.1.2.4.50';
export const EXPLICIT_LITTLE = '1.2.840.10008.1.2.1';

/** The syntax of `uid`, or null for one we cannot read (big endian, deflated, JPEG lossless, JPEG-LS, RLE, video). */
export function transferSyntax(uid: string): TransferSyntax | null {
  return SYNTAXES.find((s) => s.uid === uid.replace(/\0/g, '').trim()) ?? null;
}
