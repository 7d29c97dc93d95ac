import { createRequire } from 'node:module';
import type { RgbImage } from '../tile-reader.js';

/**
 * JPEG 2000 frames (DICOM 1.2.840.10008.1.2.4.90/.91 and HTJ2K) decoded with OpenJPEG built to WebAssembly
 * (@cornerstonejs/codec-openjpeg): sharp's bundled libvips has no JPEG 2000 loader, and a WebAssembly build needs
 * nothing from the system. Frames are small (a tile each), so one decoder instance serves them in turn.
 */
interface J2KDecoder {
  getEncodedBuffer(length: number): Uint8Array;
  getDecodedBuffer(): Uint8Array;
  decode(): void;
  getFrameInfo(): { width: number; height: number; bitsPerSample: number; componentCount: number; isSigned: boolean };
  delete(): void;
}
interface OpenJpegModule {
  J2KDecoder: new () => J2KDecoder;
}

const require = createRequire(import.meta.url);
let codec: Promise<OpenJpegModule> | null = null;

function openJpeg(): Promise<OpenJpegModule> {
  const factory = require('@cornerstonejs/codec-openjpeg/decodewasmjs') as (options: object) => Promise<OpenJpegModule>;
  // OpenJPEG reports every decoded tile on stdout; the server's log is not the place for it.
  codec ??= factory({ print: () => {}, printErr: () => {} });
  return codec;
}

export class Jpeg2000Error extends Error {}

/** One JPEG 2000 codestream as 8-bit RGB (grey repeated in three channels). */
export async function decodeJpeg2000(bytes: Buffer): Promise<RgbImage> {
  const { J2KDecoder } = await openJpeg();
  const decoder = new J2KDecoder();
  try {
    decoder.getEncodedBuffer(bytes.length).set(bytes);
    decoder.decode();
    const { width, height, bitsPerSample, componentCount } = decoder.getFrameInfo();
    if (bitsPerSample !== 8 || (componentCount !== 1 && componentCount !== 3)) {
      throw new Jpeg2000Error(`${componentCount} components of ${bitsPerSample} bits`);
    }
    const decoded = decoder.getDecodedBuffer();
    const n = width * height;
    const data = Buffer.alloc(n * 3);
    if (componentCount === 3) data.set(decoded.subarray(0, n * 3));
    else for (let i = 0; i < n; i++) data[i * 3] = data[i * 3 + 1] = data[i * 3 + 2] = decoded[i];
    return { data, width, height };
  } finally {
    decoder.delete();
  }
}
