import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { convertedFrom, derivedNames } from './conversion/derived-names.js';

/** A file moved into place, and how to put it back where it came from (a failed insert must not lose the upload). */
export interface Placed {
  file: string;
  putBack(): Promise<void>;
}

/** Names tried before giving up: the first is the file's own, the others carry a random suffix. */
const ATTEMPTS = 16;

/**
 * Moves `from` into `dir` under its own name, or a suffixed one when the name is taken: two hospitals'
 * slides are often both called `1.kfb`, and two binds may land at the same moment. A name is claimed
 * atomically (hard link, or an exclusive copy across file systems), never by "check, then rename", so an
 * existing file is never replaced. A name whose converted TIFF (`name.ext.tiff`) is already on disk is
 * skipped (so is one whose unpacked DICOM folder is), and a file named like a conversion (`a.png.tiff`) is stored as `a_png.tiff`: the converted file
 * beside a slide then only ever belongs to that slide. A `.dzi` takes its `_files` tile folder along.
 */
export async function moveInto(from: string, dir: string): Promise<Placed> {
  await fs.mkdir(dir, { recursive: true });
  const ext = path.extname(from);
  const own = path.basename(from, ext);
  const stem = convertedFrom(own + ext) ? own.replace(/\.(?=[^.]*$)/, '_') : own;
  // A Deep Zoom descriptor names its tiles by its own name: `slide.dzi` needs `slide_files/` beside it.
  const tiles = ext.toLowerCase() === '.dzi' ? path.join(path.dirname(from), `${own}_files`) : null;
  const hasTiles = !!tiles && !!(await fs.stat(tiles).catch(() => null))?.isDirectory();

  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    const name = attempt === 0 ? stem : `${stem}-${randomBytes(4).toString('hex')}`;
    const to = path.join(dir, name + ext);
    if ((await Promise.all(derivedNames(to).map(exists))).some(Boolean)) continue;
    const folder = path.join(dir, `${name}_files`);
    // The tile folder's name is reserved first (mkdir is exclusive), then the descriptor's.
    if (hasTiles && !(await reserveDir(folder))) continue;
    if (!(await claim(from, to))) {
      if (hasTiles) await fs.rmdir(folder);
      continue;
    }
    if (hasTiles) await moveDir(tiles!, folder);
    return {
      file: to,
      putBack: async () => {
        await fs.mkdir(path.dirname(from), { recursive: true });
        // Back where the upload left it; should a new file stand there meanwhile, ours stays in dir, not lost.
        if (!(await claim(to, from))) return;
        if (hasTiles && (await reserveDir(tiles!))) await moveDir(folder, tiles!);
      },
    };
  }
  throw new Error(`no free name for ${own}${ext} in ${dir}`);
}

/** Gives `from` the name `to` if no file has it; false when taken. `from` is gone afterwards. */
async function claim(from: string, to: string): Promise<boolean> {
  try {
    await fs.link(from, to);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'EEXIST') return false;
    // No hard links across devices (or on some network shares): an exclusive copy instead.
    if (code !== 'EXDEV' && code !== 'EPERM' && code !== 'ENOTSUP') throw err;
    try {
      await fs.copyFile(from, to, constants.COPYFILE_EXCL);
    } catch (copyErr) {
      if ((copyErr as NodeJS.ErrnoException).code === 'EEXIST') return false;
      await fs.rm(to, { force: true });
      throw copyErr;
    }
  }
  await fs.unlink(from);
  return true;
}

async function reserveDir(dir: string): Promise<boolean> {
  try {
    await fs.mkdir(dir);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

/** Moves folder `from` onto the empty folder `to` we reserved (rename replaces an empty directory). */
async function moveDir(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EXDEV') throw err;
    await fs.cp(from, to, { recursive: true, errorOnExist: true, force: false });
    await fs.rm(from, { recursive: true });
  }
}

const exists = (p: string) => fs.lstat(p).then(() => true, () => false);
