import type { Db } from '../connect.js';
import { seedDemoData } from './demo.js';
import { seedStructure } from './structure.js';

/** Every start: the product's structure (always), then the demo hospitals, accounts and slides when `demo`. */
export async function seed(db: Db, demo: boolean, dataDir?: string): Promise<void> {
  await seedStructure(db);
  if (demo) await seedDemoData(db, dataDir);
}
