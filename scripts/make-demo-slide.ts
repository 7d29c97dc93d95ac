/**
 * Writes a synthetic H&E-like pyramidal TIFF for demos, tests and the tile benchmark.
 *
 *   node --import tsx scripts/make-demo-slide.ts --out demo.tiff --width 50000 --height 50000 [--tile 256] [--mpp 0.25] [--seed 1]
 *     [--quality 80] [--id DEMO-1] [--no-label] [--bigtiff]
 *
 * The generator itself lives in server/modules/slides/demo-slide so the seed and the tests can call it.
 */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { pathToFileURL } from 'node:url';
import { generateDemoSlide } from '../server/modules/slides/demo-slide/generate.js';

export { generateDemoSlide, type DemoSlideOptions, type DemoSlideResult } from '../server/modules/slides/demo-slide/generate.js';

async function main() {
  const { values } = parseArgs({
    options: {
      out: { type: 'string' },
      width: { type: 'string', default: '50000' },
      height: { type: 'string', default: '50000' },
      tile: { type: 'string', default: '256' },
      mpp: { type: 'string', default: '0.25' },
      seed: { type: 'string', default: '1' },
      quality: { type: 'string', default: '80' },
      id: { type: 'string' },
      'no-label': { type: 'boolean', default: false },
      bigtiff: { type: 'boolean', default: false },
    },
  });
  if (!values.out) {
    console.error('usage: make-demo-slide --out FILE.tiff [--width 50000] [--height 50000] [--tile 256] [--mpp 0.25] [--seed 1]');
    process.exit(2);
  }
  const result = await generateDemoSlide({
    out: path.resolve(values.out),
    width: Number(values.width),
    height: Number(values.height),
    tileSize: Number(values.tile),
    mpp: Number(values.mpp),
    seed: Number(values.seed),
    quality: Number(values.quality),
    slideId: values.id,
    label: !values['no-label'],
    bigTiff: values.bigtiff ? true : 'auto',
  });
  const rssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  console.log(`${result.file}: ${result.width}x${result.height}, ${result.levels.length} levels, ${result.tiles} tiles, `
    + `${(result.bytes / 2 ** 20).toFixed(1)} MiB${result.bigTiff ? ' (BigTIFF)' : ''}, ${(result.ms / 1000).toFixed(1)} s, peak RSS ${rssMb} MiB`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
