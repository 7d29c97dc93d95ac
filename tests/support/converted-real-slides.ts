import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { convertWithOpenSlide } from '../../server/modules/slides/conversion/openslide-convert.js';
import { vipsEnv } from '../../server/modules/slides/conversion/vips-cli.js';
import { realSlide } from './real-slides.js';

/**
 * The pyramidal TIFFs the app's conversion (convertWithOpenSlide, what the `slides.convert` job runs) makes of the
 * real scanner files, converted once and kept for later runs and for the other test files that need them, so a
 * test about what comes after conversion (exports, viewers) does not spend a conversion per run and database.
 * tests/api/slides-conversion.test.ts still converts through the job: it tests the conversion itself.
 *
 * Kept under `DSMS_CONVERTED_CACHE`, else `<tmp>/dsms-converted-real`, in a folder named for what the result depends
 * on: the original's bytes, the conversion code and Debian's vips version. Changing any of them converts afresh.
 * Parallel callers (the api-sqlite and api-postgres runs of one file) convert once: the first holds a lock
 * (a directory made atomically), the others wait for the result it renames into place.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const CACHE = process.env.DSMS_CONVERTED_CACHE ?? path.join(os.tmpdir(), 'dsms-converted-real');
/** What a conversion's output depends on in our code: the converter, the label/macro reader and the TIFF appender. */
const CONVERTER_FILES = [
  'server/modules/slides/conversion/openslide-convert.ts',
  'server/modules/slides/conversion/openslide-associated.ts',
  'server/modules/slides/conversion/openslide-associated.child.mjs',
  'server/modules/tiles/tiff/append-images.ts',
];
const LOCK_WAIT_MS = 600_000;

let keyOfCode: string | undefined;
function codeKey(): string {
  if (keyOfCode) return keyOfCode;
  const hash = createHash('sha256');
  for (const f of CONVERTER_FILES) hash.update(fs.readFileSync(path.join(root, f)));
  hash.update(execFileSync('vips', ['--version'], { env: vipsEnv() }));
  keyOfCode = hash.digest('hex').slice(0, 16);
  return keyOfCode;
}

/** The converted TIFF of a real file (`name` as in the real folder), converting it first when no run has yet. */
export async function convertedRealSlide(name: string): Promise<string> {
  const source = realSlide(name);
  const key = `${createHash('sha256').update(fs.readFileSync(source)).digest('hex').slice(0, 16)}-${codeKey()}`;
  const dir = path.join(CACHE, key);
  const result = path.join(dir, `${path.basename(name)}.tiff`);
  if (fs.existsSync(result)) return result;
  fs.mkdirSync(dir, { recursive: true });
  const lock = path.join(dir, '.converting');
  const end = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    if (fs.existsSync(result)) return result;
    if (takeLock(lock)) break;
    if (Date.now() > end) throw new Error(`${lock}: another conversion of ${name} did not finish in ${LOCK_WAIT_MS / 1000} s`);
    await new Promise((r) => setTimeout(r, 250));
  }
  try {
    if (fs.existsSync(result)) return result;
    // The original is read-only where it lies and the converter writes beside it: it converts a link in a folder of its own.
    const work = fs.mkdtempSync(path.join(dir, 'work-'));
    try {
      const link = path.join(work, path.basename(name));
      fs.symlinkSync(source, link);
      const { file } = await convertWithOpenSlide(link);
      fs.renameSync(file, result);
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
    return result;
  } finally {
    fs.rmSync(lock, { recursive: true, force: true });
  }
}

/** Made atomically; one left by a process that died is taken over. */
function takeLock(lock: string): boolean {
  try {
    fs.mkdirSync(lock);
    fs.writeFileSync(path.join(lock, 'pid'), String(process.pid));
    return true;
  } catch {
    const pid = Number(fs.readFileSync(path.join(lock, 'pid'), { encoding: 'utf8', flag: 'a+' }) || 0);
    if (pid && !alive(pid)) fs.renameSync(lock, `${lock}.stale-${randomBytes(4).toString('hex')}`);
    return false;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
