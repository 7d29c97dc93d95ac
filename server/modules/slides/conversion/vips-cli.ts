import { execFile, spawn } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/**
 * The environment for Debian's vips commands. sharp's bundled libvips sets VIPSHOME to its own build prefix
 * when it loads (in this process's environment, so children inherit it); Debian's vips would then look for
 * its loadable modules there and miss OpenSlide, silently reading an SVS as a plain TIFF. Passed on to the child,
 * not read as settings (config.ts reads those).
 */
export function vipsEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env };
  delete env.VIPSHOME;
  return env;
}

/**
 * Debian's libvips command line, built with OpenSlide and OpenJPEG (sharp's bundled libvips is not). Optional:
 * without it the app runs and the slides that need it say what to install (format_note `vips_missing`).
 */
let available: Promise<boolean> | undefined;
export function vipsAvailable(): Promise<boolean> {
  available ??= run('vips', ['--version'], { timeout: 10_000, env: vipsEnv() }).then(() => true, () => false);
  return available;
}

/** Forget the answer (after installing libvips-tools, the next conversion looks again). */
export const recheckVips = () => { available = undefined; };

export interface VipsRun {
  signal?: AbortSignal;
  /** 0–100 as libvips reports it (`--vips-progress`). */
  onProgress?: (percent: number) => void;
}

/**
 * Runs `vips …` at the lowest CPU priority (`nice -n 19`), so a conversion takes only what tile serving leaves.
 * Rejects with libvips' own error text; the child is killed when the signal aborts.
 */
export function runVips(args: string[], { signal, onProgress }: VipsRun = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('nice', ['-n', '19', 'vips', ...args, '--vips-progress'], { stdio: ['ignore', 'pipe', 'pipe'], signal, killSignal: 'SIGKILL', env: vipsEnv() });
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (text: string) => {
      const all = [...text.matchAll(/(\d+)% complete/g)];
      if (all.length && onProgress) onProgress(Number(all[all.length - 1][1]));
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr = (stderr + text).slice(-4000); });
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`vips ${args[0]} failed (${code}): ${stderr.trim()}`))));
  });
}

/** One OpenSlide property of a slide (`openslide.objective-power`), or null when the slide does not say. */
export async function openslideProperty(file: string, name: string): Promise<string | null> {
  const { stdout } = await run('vipsheader', ['-f', name, file], { timeout: 60_000, env: vipsEnv() }).catch(() => ({ stdout: '' }));
  const value = stdout.trim();
  return value === '' ? null : value;
}
