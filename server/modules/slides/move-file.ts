import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';

/**
 * Moves `from` into `dir` under its own name, or a suffixed one when the name is taken: two hospitals'
 * slides are often both called `1.kfb`. Falls back to copy + delete across file systems.
 */
export async function moveInto(from: string, dir: string): Promise<string> {
  await fs.mkdir(dir, { recursive: true });
  const ext = path.extname(from);
  const stem = path.basename(from, ext);
  let to = path.join(dir, stem + ext);
  if (await exists(to)) to = path.join(dir, `${stem}-${randomBytes(4).toString('hex')}${ext}`);
  try {
    await fs.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.copyFile(from, to);
    await fs.rm(from);
  }
  return to;
}

const exists = (p: string) => fs.stat(p).then(() => true, () => false);
