import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateDemoSlide } from '../../server/modules/slides/demo-slide/generate.js';
import { slidesDirResolver } from '../../server/modules/tiles/resolver.js';
import { TileService } from '../../server/modules/tiles/tile-service.js';

let dir: string;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-associated-'));
  fs.mkdirSync(path.join(dir, 'slides'));
  await generateDemoSlide({ out: path.join(dir, 'slides', 'lbl.tiff'), width: 2048, height: 1536, tileSize: 256, seed: 5, label: true });
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('label and macro images', () => {
  // Two services (two apps in one process, or the tile cache having evicted the label) decode the same TIFF
  // page twice; libvips' operation cache once handed the second decode the first one's spent sequential reader.
  it('decode the same page of the same file again in one process', async () => {
    for (let i = 0; i < 3; i++) {
      const service = new TileService({ resolveSlide: slidesDirResolver(path.join(dir, 'slides')) });
      try {
        const label = await service.associated(await service.open('lbl'), 'label');
        expect((await sharp(label.body).metadata()).format).toBe('jpeg');
      } finally {
        service.close();
      }
    }
  });
});
