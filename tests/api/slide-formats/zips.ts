import fs from 'node:fs';
import { expect } from 'vitest';
import yazl from 'yazl';

export async function writeZip(out: string, files: Record<string, string | Buffer>, patch?: (b: Buffer) => void): Promise<void> {
  const zip = new yazl.ZipFile();
  for (const [name, text] of Object.entries(files)) zip.addBuffer(Buffer.isBuffer(text) ? text : Buffer.from(text), name);
  zip.end();
  const chunks: Buffer[] = [];
  for await (const chunk of zip.outputStream) chunks.push(chunk as Buffer);
  const bytes = Buffer.concat(chunks);
  patch?.(bytes);
  fs.writeFileSync(out, bytes);
}

/** Renames an entry in place (local header and central directory): zip writers refuse to write `..` themselves. */
export function patchName(b: Buffer, from: string, to: string): void {
  expect(to.length).toBe(from.length);
  let at = b.indexOf(from);
  expect(at).toBeGreaterThan(0);
  for (; at >= 0; at = b.indexOf(from, at + 1)) b.write(to, at, 'latin1');
}
