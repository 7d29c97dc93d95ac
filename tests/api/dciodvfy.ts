import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import yauzl from 'yauzl';

const exec = promisify(execFile);

/**
 * Whether Debian's dicom3tools are installed (.ci/run installs them). Absent, a developer's run skips the validation
 * with a note; under CI the file fails instead, as for the real slide files (tests/support/real-slides.ts).
 */
export function dciodvfyInstalled(): boolean {
  if (!spawnSync('dciodvfy', ['-version'], { stdio: 'ignore' }).error) return true;
  if (process.env.CI) throw new Error('dciodvfy is absent: CI validates DICOM exports with Debian\'s dicom3tools (apt-get install dicom3tools)');
  console.warn('dciodvfy is absent (apt-get install dicom3tools): the DICOM export validation is skipped');
  return false;
}

/**
 * Debian's `dciodvfy` (dicom3tools): David Clunie's validator of a DICOM file against its IOD's modules, attributes,
 * value representations and the standard's conditions. It prints its findings on stderr, one per line, starting
 * `Error - ` or `Warning - `, and exits non-zero when there is an error.
 */
export async function dciodvfy(file: string): Promise<{ errors: string[]; warnings: string[] }> {
  const { stderr } = await exec('dciodvfy', ['-new', file], { maxBuffer: 16 * 2 ** 20 }).catch((err: { stderr?: string; stdout?: string }) => {
    if (typeof err.stderr !== 'string') throw err;
    return { stderr: err.stderr };
  });
  const lines = stderr.split('\n').map((l) => l.trimEnd()).filter(Boolean);
  return { errors: lines.filter((l) => l.startsWith('Error')), warnings: lines.filter((l) => l.startsWith('Warning')) };
}

/** Every entry of a zip written into `dir` under its own name (our exports name `<slide>/<instance>.dcm`); answers the paths. */
export async function unzipInto(zipBytes: Buffer, dir: string): Promise<string[]> {
  fs.mkdirSync(dir, { recursive: true });
  const zipFile = path.join(dir, '.export.zip');
  fs.writeFileSync(zipFile, zipBytes);
  const zip = await yauzl.openPromise(zipFile, { lazyEntries: true, autoClose: false });
  const out: string[] = [];
  try {
    for await (const entry of zip.eachEntry()) {
      const chunks: Buffer[] = [];
      for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
      const target = path.join(dir, `${String(out.length).padStart(2, '0')}-${path.basename(entry.fileName)}`);
      fs.writeFileSync(target, Buffer.concat(chunks));
      out.push(target);
    }
  } finally {
    zip.close();
    fs.rmSync(zipFile, { force: true });
  }
  return out;
}
