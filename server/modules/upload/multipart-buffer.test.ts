import { describe, expect, it } from 'vitest';
import { multipartBoundary, parseMultipart } from './multipart-buffer.js';

/** A body exactly as a browser's FormData encodes it (undici's encoder, the one fetch uses). */
async function encode(form: FormData): Promise<{ body: Buffer; boundary: string }> {
  const response = new Response(form);
  const boundary = multipartBoundary(response.headers.get('content-type') ?? undefined);
  if (!boundary) throw new Error('no boundary');
  return { body: Buffer.from(await response.arrayBuffer()), boundary };
}

const text = (body: Buffer, p: { start: number; end: number }) => body.toString('utf8', p.start, p.end);

describe('multipart from a buffer', () => {
  it('reads the fields and the file of a chunk request, the file as a view of the body', async () => {
    const bytes = Buffer.alloc(70_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = (i * 31) % 256;
    const form = new FormData();
    form.append('file_name', '切片 1.kfb');
    form.append('num', '3');
    form.append('blob', new Blob([bytes]), 'blob');
    form.append('after', 'x');
    const { body, boundary } = await encode(form);
    const parts = parseMultipart(body, body.length, boundary)!;
    expect(parts.map((p) => [p.name, p.filename])).toEqual([['file_name', undefined], ['num', undefined], ['blob', 'blob'], ['after', undefined]]);
    expect(text(body, parts[0]!)).toBe('切片 1.kfb');
    expect(text(body, parts[1]!)).toBe('3');
    expect(body.subarray(parts[2]!.start, parts[2]!.end).equals(bytes)).toBe(true);
    expect(text(body, parts[3]!)).toBe('x');
  });

  it('keeps a file whose bytes contain CRLF, dashes and most of the boundary', async () => {
    const form = new FormData();
    const { boundary } = await encode(form);
    const tricky = Buffer.from(`\r\n--\r\n--${boundary.slice(0, -1)}\r\n\r\n`);
    form.append('blob', new Blob([tricky]), 'b');
    const encoded = await encode(form);
    const [part] = parseMultipart(encoded.body, encoded.body.length, encoded.boundary)!;
    expect(encoded.body.subarray(part!.start, part!.end).equals(tricky)).toBe(true);
  });

  it('reads an empty file and an empty body', async () => {
    const form = new FormData();
    form.append('blob', new Blob([]), 'empty');
    const { body, boundary } = await encode(form);
    const [part] = parseMultipart(body, body.length, boundary)!;
    expect(part).toMatchObject({ name: 'blob', filename: 'empty' });
    expect(part!.end - part!.start).toBe(0);
    const none = await encode(new FormData());
    expect(parseMultipart(none.body, none.body.length, none.boundary)).toEqual([]);
  });

  it('refuses a body cut short, a missing boundary, a part without a name and one beyond the length given', async () => {
    const form = new FormData();
    form.append('num', '1');
    const { body, boundary } = await encode(form);
    expect(parseMultipart(body, body.length - 5, boundary)).toBeNull();
    expect(parseMultipart(body, body.length, 'other')).toBeNull();
    const nameless = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${boundary}--\r\n`);
    expect(parseMultipart(nameless, nameless.length, boundary)).toBeNull();
    const padded = Buffer.concat([body.subarray(0, 20), Buffer.alloc(100)]);
    expect(parseMultipart(padded, 20, boundary)).toBeNull();
  });

  it('finds the boundary in quoted and plain content types, and nothing in others', () => {
    expect(multipartBoundary('multipart/form-data; boundary=----abc')).toBe('----abc');
    expect(multipartBoundary('Multipart/Form-Data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeUndefined();
    expect(multipartBoundary('multipart/form-data')).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });
});
