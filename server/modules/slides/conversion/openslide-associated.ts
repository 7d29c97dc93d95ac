import { spawn } from 'node:child_process';
import type { StrippedImage } from '../../tiles/tiff/append-images.js';
import { appPath } from '../../../paths.js';

/** Plain JavaScript run by node as it is, from the source tree (also by the compiled server). */
const CHILD = appPath('server/modules/slides/conversion/openslide-associated.child.mjs');
/** An associated image larger than this (pixels) is left out: scanners make them a few megapixels at most. */
export const MAX_ASSOCIATED_PIXELS = 64 * 2 ** 20;
const TIMEOUT_MS = 120_000;

/** What a converted pyramid keeps of the original besides its levels: the scanner's thumbnail, its label and macro. */
export const ASSOCIATED_NAMES = ['thumbnail', 'label', 'macro'] as const;
export type AssociatedName = typeof ASSOCIATED_NAMES[number];

/**
 * The thumbnail, label and macro images OpenSlide reads from a slide, as RGB pixels. Each is read by a child process
 * (openslide-associated.child.mjs, libopenslide through koffi), so a crash in the C library (Debian's libvips
 * 8.14.1 segfaults on exactly this) costs only that image; an image that cannot be read is left out.
 */
export async function readAssociatedImages(slide: string, signal?: AbortSignal): Promise<StrippedImage[]> {
  const out: StrippedImage[] = [];
  for (const name of ASSOCIATED_NAMES) {
    const image = await readOne(slide, name, signal).catch(() => null);
    if (image) out.push(image);
  }
  return out;
}

/** One associated image, or null when the slide has none of that name; rejects when the child failed. */
export function readOne(slide: string, name: AssociatedName, signal?: AbortSignal): Promise<StrippedImage | null> {
  return new Promise((resolve, reject) => {
    // The child inherits this process's environment (PATH, the libraries' own variables): it is passed on, not read
    // as settings, which config.ts alone reads.
    const child = spawn(process.execPath, [CHILD, slide, name, String(MAX_ASSOCIATED_PIXELS)], {
      stdio: ['ignore', 'pipe', 'pipe'], signal, timeout: TIMEOUT_MS, killSignal: 'SIGKILL', env: { ...process.env, NODE_OPTIONS: '' },
    });
    const chunks: Buffer[] = [];
    let bytes = 0;
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
      if (bytes > MAX_ASSOCIATED_PIXELS * 3 + 8) child.kill('SIGKILL');
      else chunks.push(chunk);
    });
    child.stderr.setEncoding('utf8').on('data', (text: string) => { stderr = (stderr + text).slice(-2000); });
    child.on('error', reject);
    child.on('close', (code, killedBy) => {
      if (code === 2) return resolve(null);
      if (code !== 0) return reject(new Error(`reading the ${name} image failed (${killedBy ?? code}): ${stderr.trim()}`));
      const all = Buffer.concat(chunks);
      if (all.length < 8) return reject(new Error(`reading the ${name} image gave no pixels`));
      const width = all.readUInt32LE(0), height = all.readUInt32LE(4);
      const rgb = all.subarray(8);
      if (rgb.length !== width * height * 3) return reject(new Error(`the ${name} image was cut short`));
      resolve({ description: name, width, height, rgb });
    });
  });
}
