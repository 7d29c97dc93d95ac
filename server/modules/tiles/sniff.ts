/** What a file is, from its first 16 bytes: slides are recognised by content, never by their name. */
export type SniffedFormat = 'tiff' | 'kfb' | 'zip' | 'jpeg' | 'png';

export const SNIFF_BYTES = 16;

export function sniffFormat(head: Buffer): SniffedFormat | null {
  const ascii = (from: number, to: number) => head.toString('latin1', from, to);
  const order = ascii(0, 2);
  if (head.length >= 4 && (order === 'II' || order === 'MM')) {
    const magic = order === 'II' ? head.readUInt16LE(2) : head.readUInt16BE(2);
    if (magic === 42 || magic === 43) return 'tiff';
  }
  if (head.length >= 7 && ascii(4, 7) === 'KFB') return 'kfb';
  if (head.length >= 4 && head.readUInt32BE(0) === 0x504b0304) return 'zip';
  if (head.length >= 3 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return 'jpeg';
  if (head.length >= 8 && head.readUInt32BE(0) === 0x89504e47 && head.readUInt32BE(4) === 0x0d0a1a0a) return 'png';
  return null;
}
