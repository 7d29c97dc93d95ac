import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../connect.js';
import { ingestNow } from '../../modules/slides/ingest-now.js';
import { toStored } from '../../modules/slides/paths.js';
import { registerSlide } from '../../modules/slides/register.js';
import type { Storage } from '../../storage/storage.js';
import { DEMO_SLIDES, writeDemoSlideFiles } from './demo-slide-files.js';
import { demoSlidesDir, demoSlidesWrittenAhead } from './demo-slides-ahead.js';

/**
 * Synthetic slides under `<dataDir>/slides/demo/`, so a fresh demo has something to open. Only into an empty table.
 * Registered as any file is (registerSlide) and read by their ingest jobs here, in the setup process, so they are
 * ready when the server first answers and what reading them allocates goes when the setup exits.
 */
export async function seedDemoSlides(db: Db, dataDir: string, storage?: Storage): Promise<void> {
  if (await db.selectFrom('slides').select('id').limit(1).executeTakeFirst()) return;
  // The first demo hospital's; its registered cases hold two of them.
  const hospital = await db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirst();
  const hospitalId = hospital?.id ?? 0;
  const dir = demoSlidesDir(dataDir);
  await fs.mkdir(dir, { recursive: true });
  await (demoSlidesWrittenAhead(dir) ?? writeDemoSlideFiles(dir));
  for (const s of DEMO_SLIDES) {
    const out = path.join(dir, s.file);
    const bound = s.case ? await db.selectFrom('cases').select('id').where('hospital_id', '=', hospitalId).where('pathology_number', '=', s.case).executeTakeFirst() : undefined;
    // On object storage the files are generated here, then put at their keys and removed from local disk.
    if (storage?.kind === 's3') {
      await storage.write(toStored(dataDir, out), createReadStream(out));
      await fs.rm(out, { force: true });
    }
    const id = await registerSlide(db, dataDir, out, { name: s.name, hospital_id: hospitalId, case_id: bound?.id ?? null, uploaded_by: null }, storage);
    await ingestNow(db, dataDir, id, { storage });
  }
}
