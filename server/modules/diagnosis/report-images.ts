import type { Storage } from '../../storage/storage.js';
import { readAttachment } from '../upload/attachment-read.js';
import type { ReportDocument } from './report-data.js';

/** A report shows at most this many images (two rows of two). */
export const REPORT_IMAGES_SHOWN = 4;

/**
 * The bytes of the report's images, in their order, read through the app's storage before the PDF is drawn (pdfkit
 * draws synchronously; on object storage the image may have been uploaded through another node). A missing or
 * unreadable one is left out rather than failing the report.
 */
export async function loadReportImages(storage: Storage, images: ReportDocument['images']): Promise<Buffer[]> {
  const loaded = await Promise.all(images.slice(0, REPORT_IMAGES_SHOWN).map(async (img) => {
    const bytes = await readAttachment(storage, img.path).catch(() => null);
    return bytes && drawable(bytes);
  }));
  return loaded.filter((b): b is Buffer => !!b);
}

const isJpeg = (bytes: Buffer) => bytes.length > 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff;

/**
 * What pdfkit can draw safely: a JPEG as it is (embedded, never decoded), anything else decoded and written again
 * as PNG by libvips, or null when it cannot be read. pdfkit inflates a PNG with transparency on its own, later and
 * outside any try: a corrupt one threw an uncaught zlib error and the report never finished.
 */
async function drawable(bytes: Buffer): Promise<Buffer | null> {
  if (isJpeg(bytes)) return bytes;
  const { default: sharp } = await import('sharp');
  return sharp(bytes).png().toBuffer().catch(() => null);
}
