import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Moves `from` into `dir` under its own name, or a suffixed one when the name is taken: two hospitals'
 * slides are often both called `1.kfb`. Falls back to copy + delete across file systems. A `.dzi` takes
 * its `_files` tile folder along.
 */
export async function moveInto(from: string, dir: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const ext = path.extname(from);
  const stem = path.basename(from, ext);
  // A Deep Zoom descriptor names its tiles by its own name: `slide.dzi` needs `slide_files/` beside it.
  const tiles = ext.toLowerCase() === '.dzi' ? path.join(path.dirname(from), `${stem}_files`) : null;
  const taken = async (name: string) => (await exists(path.join(dir, name + ext))) || (!!tiles && (await exists(path.join(dir, `${name}_files`))));
  let name = stem;
  if (await taken(name)) name = `${stem}-${randomBytes(4).toString('hex')}`;
  const to = path.join(dir, name + ext);
  await move(from, to);
  if (tiles && (await fs.stat(tiles).catch(() => null))?.isDirectory()) await move(tiles, path.join(dir, `${name}_files`));
  return to;
}

async function move(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.cp(from, to, { recursive: true });
    await fs.rm(from, { recursive: true });
  }
}

const exists = (p: string) => fs.stat(p).then(() => true, () => false);
