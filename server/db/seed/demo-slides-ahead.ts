import fs from 'node:fs/promises';
import path from 'node:path';
import { slidesRoot } from '../../modules/slides/paths.js';
import { runEntry } from '../../paths.js';

/** Where the demo slides go: `<dataDir>/slides/demo/`. */
export const demoSlidesDir = (dataDir: string) => path.join(slidesRoot(dataDir), 'demo');

/** The demo folders whose files are being written ahead by another process, and the writing. */
const writtenAhead = new Map<string, Promise<void>>();

/**
 * Has the demo slide files painted by a process of their own (write-demo-slides.ts) while the caller builds the
 * database: a first start's setup (server/setup.ts) starts it before anything else, since painting takes a core
 * for about a second, longer than the migrations and the rest of the seed. seedDemoSlides (demo-slides.ts) then
 * waits for those files instead of painting them itself. A small module of its own, so the setup can start it
 * before it loads the seed's code.
 */
export function writeDemoSlidesAhead(dataDir: string): void {
  const dir = demoSlidesDir(dataDir);
  const writing = fs.mkdir(dir, { recursive: true }).then(() => runEntry('server/db/seed/write-demo-slides.ts', [dir]));
  writing.catch(() => {}); // awaited by seedDemoSlides
  writtenAhead.set(dir, writing);
}

/** The writing writeDemoSlidesAhead started for `dir`, if any. */
export const demoSlidesWrittenAhead = (dir: string): Promise<void> | undefined => writtenAhead.get(dir);
