import fs from 'node:fs/promises';
import path from 'node:path';
import { slidesRoot } from '../../modules/slides/paths.js';
import { appPath, COMPILED, runEntry } from '../../paths.js';

/** Where the demo slides go: `<dataDir>/slides/demo/`. */
export const demoSlidesDir = (dataDir: string) => path.join(slidesRoot(dataDir), 'demo');

/** Where `npm run build` paints the demo slide files once (scripts/build-server.ts), relative to the app's root. */
export const PREBUILT_DEMO_SLIDES = path.join('dist-server', 'demo-slides');

/** The demo folders whose files are being written ahead by another process, and the writing. */
const writtenAhead = new Map<string, Promise<void>>();

/**
 * Has the demo slide files written while the caller builds the database: a first start's setup (server/setup.ts)
 * starts it before anything else; seedDemoSlides (demo-slides.ts) then waits for those files instead of painting
 * them itself. The compiled server copies the ones `npm run build` painted; the TypeScript server has them painted by
 * a process of its own (write-demo-slides.ts), as painting takes a core for about a second, longer than the
 * migrations and the rest of the seed. A small module of its own, so the setup can start it before it loads the
 * seed's code.
 */
export function writeDemoSlidesAhead(dataDir: string): void {
  const dir = demoSlidesDir(dataDir);
  const writing = COMPILED
    ? fs.cp(appPath(PREBUILT_DEMO_SLIDES), dir, { recursive: true, errorOnExist: false })
    : fs.mkdir(dir, { recursive: true }).then(() => runEntry('server/db/seed/write-demo-slides.ts', [dir]));
  writing.catch(() => {}); // awaited by seedDemoSlides
  writtenAhead.set(dir, writing);
}

/** The writing writeDemoSlidesAhead started for `dir`, if any. */
export const demoSlidesWrittenAhead = (dir: string): Promise<void> | undefined => writtenAhead.get(dir);
