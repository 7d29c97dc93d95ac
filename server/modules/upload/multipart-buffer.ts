/**
 * Reads a multipart/form-data body (RFC 7578) that lies whole in one buffer: the chunk route's, a handful of
 * short fields and one 2 MiB file. Busboy streams a body through a state machine and copies every piece; here
 * the parts are found with Buffer.indexOf (native memchr-speed search) and the file stays where it landed, as
 * offsets into the buffer. Anything malformed answers null: the caller refuses the request.
 */

export interface BufferedPart {
  name: string;
  /** Present for a file part (even when empty). */
  filename?: string;
  /** The part's content: [start, end) in the body buffer. */
  start: number;
  end: number;
}

/** Parts beyond these are refused: the protocol sends seven. */
export const MULTIPART_LIMITS = { parts: 80, headerBytes: 4096 } as const;

const CRLF = Buffer.from('\r\n');
const HEADER_END = Buffer.from('\r\n\r\n');

/** The boundary of a `multipart/form-data; boundary=…` content type, or undefined. */
export function multipartBoundary(contentType: string | undefined): string | undefined {
  if (!contentType || !/^multipart\/form-data\s*;/i.test(contentType)) return undefined;
  const m = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))/i.exec(contentType);
  return m?.[1] ?? m?.[2];
}

/** The parts of `body[0, length)`, in order; null when the body is not well-formed multipart with this boundary. */
export function parseMultipart(body: Buffer, length: number, boundary: string): BufferedPart[] | null {
  const dash = Buffer.from(`--${boundary}`);
  const delimiter = Buffer.from(`\r\n--${boundary}`);
  // A preamble before the first boundary is allowed (and ignored) by RFC 2046.
  let at = body.indexOf(dash, 0);
  if (at < 0 || at >= length) return null;
  at += dash.length;
  const parts: BufferedPart[] = [];
  for (;;) {
    // After a boundary: "--" closes the body, CRLF opens a part.
    if (at + 2 > length) return null;
    if (body[at] === 0x2d && body[at + 1] === 0x2d) return parts;
    if (body[at] !== CRLF[0] || body[at + 1] !== CRLF[1]) return null;
    const headersStart = at + 2;
    const headersEnd = body.indexOf(HEADER_END, headersStart);
    if (headersEnd < 0 || headersEnd >= length || headersEnd - headersStart > MULTIPART_LIMITS.headerBytes) return null;
    const disposition = contentDisposition(body.toString('latin1', headersStart, headersEnd));
    if (!disposition) return null;
    const start = headersEnd + HEADER_END.length;
    const end = body.indexOf(delimiter, start);
    if (end < 0 || end + delimiter.length > length) return null;
    if (parts.push({ ...disposition, start, end }) > MULTIPART_LIMITS.parts) return null;
    at = end + delimiter.length;
  }
}

/** name and filename of a part's `Content-Disposition: form-data; …` header (latin1 text, values as UTF-8). */
function contentDisposition(headers: string): { name: string; filename?: string } | undefined {
  for (const line of headers.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon < 0 || line.slice(0, colon).trim().toLowerCase() !== 'content-disposition') continue;
    const value = line.slice(colon + 1);
    if (!/^\s*form-data\s*(;|$)/i.test(value)) return undefined;
    const name = param(value, 'name');
    if (name === undefined) return undefined;
    const filename = param(value, 'filename');
    return filename === undefined ? { name } : { name, filename };
  }
  return undefined;
}

function param(value: string, key: string): string | undefined {
  const m = new RegExp(`;\\s*${key}=(?:"((?:[^"\\\\]|\\\\.)*)"|([^;\\s]*))`, 'i').exec(value);
  if (!m) return undefined;
  const raw = m[1] !== undefined ? m[1].replace(/\\(.)/g, '$1') : m[2]!;
  // Browsers send names as UTF-8 bytes; the header was read as latin1, one char per byte.
  return Buffer.from(raw, 'latin1').toString('utf8');
}
