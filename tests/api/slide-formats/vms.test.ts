import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { vipsEnv } from '../../../server/modules/slides/conversion/vips-cli.js';
import { databases } from '../harness.js';
import { formatsSuite } from './suite.js';
import { makePicture, meanAbsDiff, pictureImage, rgb, T } from './pixels.js';
import { templates } from './templates.js';
import { patchName, writeZip } from './zips.js';

/** A Hamamatsu VMS zipped as a scanner leaves it: converted in a job through OpenSlide; unsafe and bomb zips refused. */
/** The VMS below: whole JPEG MCU rows, as a scanner writes them. */
const VMS = { width: 1024, height: 768 };

const file = templates(async (file) => {
  const picture = await makePicture();
  const pic = () => pictureImage(picture);
  // A Hamamatsu VMS (key file, JPEG with restart markers, map and macro images) as a scanner leaves it in a folder, zipped;
  // the same zip with a name leaving the folder; and one that inflates far more than scanner data can.
  const vips = (...args: string[]) => promisify(execFile)('vips', args, { env: vipsEnv() });
  fs.mkdirSync(file('vms/scan-7'), { recursive: true });
  // OpenSlide wants whole rows of MCUs between restart markers: 1024 × 768 in 8-pixel MCUs (no chroma
  // subsampling at quality 90), a marker every 8.
  await pic().extract({ left: 0, top: 0, ...VMS }).png().toFile(file('vms/plain.png'));
  await vips('jpegsave', file('vms/plain.png'), file('vms/scan-7/scan-7.jpg'), '--restart-interval', '8', '--Q', '90');
  await pic().resize(256, 192).png().toFile(file('vms/map-plain.png'));
  await vips('jpegsave', file('vms/map-plain.png'), file('vms/scan-7/scan-7_map.jpg'), '--restart-interval', '8', '--Q', '90');
  await pic().resize(300, 100, { fit: 'fill' }).jpeg().toFile(file('vms/scan-7/scan-7_macro.jpg'));
  fs.writeFileSync(file('vms/scan-7/scan-7.vms'), ['[Virtual Microscope Specimen]', 'NoLayers=1', 'NoJpegColumns=1', 'NoJpegRows=1',
    'ImageFile=scan-7.jpg', 'MapFile=scan-7_map.jpg', 'MacroImage=scan-7_macro.jpg', 'SourceLens=20', `PhysicalWidth=${VMS.width * 460}`, `PhysicalHeight=${VMS.height * 460}`, ''].join('\r\n'));
  const vmsEntries = Object.fromEntries(fs.readdirSync(file('vms/scan-7')).map((n) => [`scan-7/${n}`, fs.readFileSync(file(`vms/scan-7/${n}`))]));
  await writeZip(file('vms.zip'), vmsEntries);
  await writeZip(file('vms-slip.zip'), { ...vmsEntries, 'aa/evil.txt': Buffer.from('outside') }, (b) => patchName(b, 'aa/evil.txt', '../evil.txt'));
  await writeZip(file('vms-bomb.zip'), { ...vmsEntries, 'scan-7/filler.bin': Buffer.alloc(256 * 2 ** 20) });
});

describe.each(databases)('slide formats: VMS [%s]', (kind) => {
  const s = formatsSuite(kind);
  const { bind, get, converted, dziTile } = s;

  describe('multi-file formats as a zip (VMS)', () => {
    it('converts the zip in a job: OpenSlide reads the unpacked key file, the macro follows, the zip is the original', async () => {
      const bound = await bind(file('vms.zip'), 'scan-7.zip');
      // Converting, or already converted: the runner may finish a small zip before its ingest is read back.
      expect(bound).toMatchObject({ vendor: 'hamamatsu' });
      const row = await converted(bound);
      expect(row).toMatchObject({ status: 'ready', width: VMS.width, height: VMS.height, tile_size: T, format_note: 'converted_vms', has_macro: 1 });
      expect(row.file_path).toMatch(/^slides\/\d{4}\/\d{2}\/scan-7\.zip\.tiff$/);
      const placed = path.dirname(path.join(s.dataDir, row.file_path));
      // What was unpacked for the conversion is gone; the zip stays, byte for byte.
      expect(fs.readdirSync(placed).filter((n) => n.startsWith('scan-7.zip')).sort()).toEqual(['scan-7.zip', 'scan-7.zip.tiff']);
      expect(fs.readFileSync(path.join(placed, 'scan-7.zip')).equals(fs.readFileSync(file('vms.zip')))).toBe(true);
      // Tiles against the key file's JPEG (what OpenSlide reads), and the macro image.
      for (const [col, r] of [[1, 1], [3, 2]]) {
        const got = await rgb(await dziTile(row.id, 10, col, r));
        const rect = { left: col * T, top: r * T, width: T, height: T };
        expect(meanAbsDiff(got, await rgb(sharp(file('vms/scan-7/scan-7.jpg')).extract(rect))), `tile ${col}_${r}`).toBeLessThan(3);
      }
      const macro = await sharp((await get(`/api/tiles/${row.id}/associated/macro`)).rawPayload).metadata();
      expect([macro.width, macro.height]).toEqual([300, 100]);
    }, 180_000);

    it('refuses a zip whose names leave its folder, and one that inflates like a bomb, writing nothing', async () => {
      for (const [zip, note] of [['vms-slip.zip', 'zip_unsafe_path'], ['vms-bomb.zip', 'zip_too_large']] as const) {
        const row = await bind(file(zip));
        expect(row, zip).toMatchObject({ status: 'error', vendor: 'zip', format_note: note, width: null });
        const placed = path.dirname(path.join(s.dataDir, row.file_path));
        expect(fs.readdirSync(placed).filter((n) => n.startsWith(zip)), zip).toEqual([zip]);
        expect(fs.existsSync(path.join(placed, '..', 'evil.txt'))).toBe(false);
        // Read by its ingest job, and no conversion queued.
        expect((await get(`/api/jobs/slide/${row.id}?type=slides.ingest`)).json().data, zip).toMatchObject({ status: 'done' });
        expect((await get(`/api/jobs/slide/${row.id}?type=slides.convert`)).json().data, zip).toBeNull();
      }
    });
  });
});
