import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Where the real scanner files are (not committed: SOURCES.md beside them says where they come from). One setting,
 * DSMS_REAL_DATA, else `../shared/data/real` beside the checkout. Every test that needs them asks here.
 */
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const REAL_DIR = process.env.DSMS_REAL_DATA ?? path.resolve(root, '../shared/data/real');

/**
 * Whether the real files (or `entry` among them) are here. Absent, a developer's run skips those tests with a note;
 * under CI (`CI` set, as .ci/run does) the test file fails instead, so a missing folder is never a silent pass.
 */
export function realSlides(entry = ''): boolean {
  const where = path.join(REAL_DIR, entry);
  if (fs.existsSync(where)) return true;
  if (process.env.CI) throw new Error(`${where} is absent: CI runs the real scanner files (set DSMS_REAL_DATA)`);
  console.warn(`${where} is absent (the real slide files are not committed): its tests are skipped`);
  return false;
}

/** A file (or folder) among the real ones. */
export const realSlide = (name: string) => path.join(REAL_DIR, name);
