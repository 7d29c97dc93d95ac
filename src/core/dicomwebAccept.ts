/**
 * Content negotiation of DICOMweb retrieves (PS3.18 8.7): which of the forms DSMS can give a client's Accept header
 * asks for. Frames are JPEG baseline as stored (or re-encoded once by the export's rules), or decoded to
 * uncompressed pixels (Explicit VR Little Endian) for a client that asks for those; whole instances are Part 10
 * files in JPEG baseline.
 */

export const JPEG_BASELINE = '1.2.840.10008.1.2.4.50';
export const EXPLICIT_LITTLE = '1.2.840.10008.1.2.1';

export interface MediaRange {
  type: string;
  params: Record<string, string>;
}

/** Accept's media ranges in order (`q` is not ranked: every form we give is as good as the others). */
export function parseAccept(header: string | undefined): MediaRange[] {
  if (!header?.trim()) return [];
  return splitOutsideQuotes(header, ',').map((range) => {
    const [type, ...params] = splitOutsideQuotes(range, ';').map((p) => p.trim());
    return {
      type: type.toLowerCase(),
      params: Object.fromEntries(params.filter((p) => p.includes('=')).map((p) => {
        const at = p.indexOf('=');
        return [p.slice(0, at).trim().toLowerCase(), p.slice(at + 1).trim().replace(/^"(.*)"$/, '$1')];
      })),
    };
  }).filter((r) => r.type);
}

function splitOutsideQuotes(text: string, by: string): string[] {
  const out: string[] = [];
  let quoted = false, start = 0;
  for (let i = 0; i < text.length; i++) {
    if (text[i] === '"') quoted = !quoted;
    else if (text[i] === by && !quoted) { out.push(text.slice(start, i)); start = i + 1; }
  }
  out.push(text.slice(start));
  return out.filter((p) => p.trim());
}

/** How frames are sent: each part's media type, and whether its bytes are the JPEG or the decoded pixels. */
export interface FrameForm {
  multipart: boolean;
  /** The part's (or the single body's) Content-Type. */
  contentType: string;
  pixels: 'jpeg' | 'uncompressed';
}

const jpegPart = (type: string) => `${type}; transfer-syntax=${JPEG_BASELINE}`;

/** The form of frames for `accept`, or null when nothing it names can be given (406). */
export function frameForm(accept: string | undefined, frameCount: number): FrameForm | null {
  const ranges = parseAccept(accept);
  if (!ranges.length) return { multipart: true, contentType: jpegPart('application/octet-stream'), pixels: 'jpeg' };
  for (const { type, params } of ranges) {
    const ts = params['transfer-syntax'];
    if (type === '*/*' || (type === 'multipart/related' && !params.type)) return { multipart: true, contentType: jpegPart('application/octet-stream'), pixels: 'jpeg' };
    if (type === 'multipart/related' && (params.type === 'image/jpeg' || params.type === 'image/*') && (!ts || ts === JPEG_BASELINE || ts === '*')) {
      return { multipart: true, contentType: jpegPart('image/jpeg'), pixels: 'jpeg' };
    }
    if (type === 'multipart/related' && params.type === 'application/octet-stream') {
      if (ts === '*') return { multipart: true, contentType: jpegPart('application/octet-stream'), pixels: 'jpeg' };
      if (!ts || ts === EXPLICIT_LITTLE) return { multipart: true, contentType: `application/octet-stream; transfer-syntax=${EXPLICIT_LITTLE}`, pixels: 'uncompressed' };
    }
    // A single frame may come as the bare image.
    if (frameCount === 1 && (type === 'image/jpeg' || type === 'image/*') && (!ts || ts === JPEG_BASELINE || ts === '*')) {
      return { multipart: false, contentType: 'image/jpeg', pixels: 'jpeg' };
    }
  }
  return null;
}

/** Whether `accept` takes whole instances as we give them: multipart/related of application/dicom in JPEG baseline. */
export function acceptsInstances(accept: string | undefined): boolean {
  const ranges = parseAccept(accept);
  if (!ranges.length) return true;
  return ranges.some(({ type, params }) => {
    const ts = params['transfer-syntax'];
    if (type === '*/*' || (type === 'multipart/related' && !params.type)) return true;
    return type === 'multipart/related' && params.type === 'application/dicom' && (!ts || ts === '*' || ts === JPEG_BASELINE);
  });
}

/** Frame numbers of a frame list (`1`, `3,4,5`): positive integers, at most `limit` of them. */
export function parseFrameList(text: string, limit: number): { frames: number[] } | { error: 'too_many' | 'malformed' } {
  const parts = text.split(',');
  if (parts.length > limit) return { error: 'too_many' };
  const frames = parts.map((p) => (/^[1-9][0-9]{0,8}$/.test(p.trim()) ? Number(p.trim()) : NaN));
  return frames.every(Number.isInteger) ? { frames } : { error: 'malformed' };
}
