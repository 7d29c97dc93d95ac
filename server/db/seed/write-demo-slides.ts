/**
 * Writes the demo slide files into the folder given as the only argument, in a process of its own: a first start's
 * setup (server/setup.ts, through demo-slides-ahead.ts) has them painted on another core while it builds the
 * database.
 */
import { writeDemoSlideFiles } from './demo-slide-files.js';

const dir = process.argv[2];
if (!dir) throw new Error('usage: write-demo-slides <dir>');
await writeDemoSlideFiles(dir);
