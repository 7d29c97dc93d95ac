import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../connect.js';
import { generateDemoSlide } from '../../modules/slides/demo-slide/generate.js';
import { writeKfbSlide } from '../../modules/slides/demo-slide/kfb-writer.js';
import { slidesRoot } from '../../modules/slides/paths.js';
import { registerSlide } from '../../modules/slides/register.js';

/** Small enough to write in a second or two at first start, large enough to have a few pyramid levels. */
const DEMO_SLIDES = [
  { file: 'demo-1.tiff', name: 'DEMO-1 胃黏膜活检', width: 4096, height: 3072, seed: 1, mpp: 0.25, case: 'P2026-00001' },
  { file: 'demo-2.tiff', name: 'DEMO-2 乳腺穿刺', width: 3000, height: 2000, seed: 2, mpp: 0.5, case: 'P2026-00002' },
  // Not bound yet: what a technician finds in the uploaded list.
  { file: 'demo-3.tiff', name: 'DEMO-3 淋巴结', width: 3000, height: 2000, seed: 3, mpp: 0.25, case: null },
  // A KFBio file, read by the experimental KFB reader (written to shared/formats/KFB.md).
  { file: 'demo-4.kfb', name: 'DEMO-4 宫颈活检（KFB）', width: 2048, height: 1536, seed: 4, mpp: 0.25, case: null },
];

/** Synthetic slides under `<dataDir>/slides/demo/`, so a fresh demo has something to open. Only into an empty table. */
export async function seedDemoSlides(db: Db, dataDir: string): Promise<void> {
  if (await db.selectFrom('slides').select('id').limit(1).executeTakeFirst()) return;
  // The first demo hospital's; its registered cases hold two of them.
  const hospital = await db.selectFrom('hospitals').select('id').orderBy('id').executeTakeFirst();
  const hospitalId = hospital?.id ?? 0;
  const dir = path.join(slidesRoot(dataDir), 'demo');
  await fs.mkdir(dir, { recursive: true });
  for (const s of DEMO_SLIDES) {
    const out = path.join(dir, s.file);
    const slideId = s.file.replace(/\.\w+$/, '').toUpperCase();
    if (s.file.endsWith('.kfb')) await writeKfbSlide({ out, width: s.width, height: s.height, seed: s.seed, mpp: s.mpp, slideId });
    else await generateDemoSlide({ out, width: s.width, height: s.height, seed: s.seed, mpp: s.mpp, slideId, label: true });
    const bound = s.case ? await db.selectFrom('cases').select('id').where('hospital_id', '=', hospitalId).where('pathology_number', '=', s.case).executeTakeFirst() : undefined;
    await registerSlide(db, dataDir, out, { name: s.name, hospital_id: hospitalId, case_id: bound?.id ?? null, uploaded_by: null });
  }
}
