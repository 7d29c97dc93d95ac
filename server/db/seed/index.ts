import type { Db } from '../connect.js';
import type { Storage } from '../../storage/storage.js';
import { seedDemoData } from './demo.js';
import { seedStructure } from './structure.js';

/**
 * Every start: the product's structure (always), then the demo hospitals, accounts and slides when `demo`; the slide
 * files into `storage` (STORAGE_URL) when given, else the data directory.
 */
export async function seed(db: Db, demo: boolean, dataDir?: string, storage?: Storage): Promise<void> {
  await seedStructure(db);
  if (demo) await seedDemoData(db, dataDir, storage);
}
