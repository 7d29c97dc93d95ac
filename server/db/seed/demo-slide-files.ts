import path from 'node:path';
import { generateDemoSlide } from '../../modules/slides/demo-slide/generate.js';
import { writeKfbSlide } from '../../modules/slides/demo-slide/kfb-writer.js';

/** Small enough to write in a second or two at first start, large enough to have a few pyramid levels. */
export const DEMO_SLIDES = [
  { file: 'demo-1.tiff', name: 'DEMO-1 胃黏膜活检', width: 4096, height: 3072, seed: 1, mpp: 0.25, case: 'P2026-00001' },
  { file: 'demo-2.tiff', name: 'DEMO-2 乳腺穿刺', width: 3000, height: 2000, seed: 2, mpp: 0.5, case: 'P2026-00002' },
  // Not bound yet: what a technician finds in the uploaded list.
  { file: 'demo-3.tiff', name: 'DEMO-3 淋巴结', width: 3000, height: 2000, seed: 3, mpp: 0.25, case: null },
  // A KFBio file, read by the experimental KFB reader (written to shared/formats/KFB.md).
  { file: 'demo-4.kfb', name: 'DEMO-4 宫颈活检（KFB）', width: 2048, height: 1536, seed: 4, mpp: 0.25, case: null },
];

/** Paints the demo slide files into `dir` (which exists). */
export async function writeDemoSlideFiles(dir: string): Promise<void> {
  for (const s of DEMO_SLIDES) {
    const out = path.join(dir, s.file);
    const slideId = s.file.replace(/\.\w+$/, '').toUpperCase();
    if (s.file.endsWith('.kfb')) await writeKfbSlide({ out, width: s.width, height: s.height, seed: s.seed, mpp: s.mpp, slideId });
    else await generateDemoSlide({ out, width: s.width, height: s.height, seed: s.seed, mpp: s.mpp, slideId, label: true });
  }
}
