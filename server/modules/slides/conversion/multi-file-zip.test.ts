import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { multiFileSlideIn, unpackedFolder, unpackMultiFileZip, UnsafeZipError } from './multi-file-zip.js';

/**
 * The zip layouts hospitals send MRXS and VMS/VMU slides in, built here with yazl: the key file beside its data
 * (MRXS: `x.mrxs` and the `x/` folder of Slidedat.ini and Data*.dat; VMS: the key file naming JPEGs beside it),
 * at the top or inside one folder, and the zips that must be refused before anything is unpacked.
 */
let dir: string;
beforeEach(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-multi-zip-'));
});
afterEach(async () => {
  await fs.rm(dir, { recursive: true, force: true });
});

type Entry = { name: string; bytes?: Buffer; mode?: number; folder?: boolean };

async function zipOf(name: string, entries: Entry[], patch?: (zip: Buffer) => Buffer): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const e of entries) {
    if (e.folder) zip.addEmptyDirectory(e.name);
    else zip.addBuffer(e.bytes ?? Buffer.from(`bytes of ${e.name}`), e.name, e.mode === undefined ? {} : { mode: e.mode });
  }
  zip.end();
  const parts: Buffer[] = [];
  for await (const part of zip.outputStream) parts.push(part as Buffer);
  const file = path.join(dir, name);
  await fs.writeFile(file, patch ? patch(Buffer.concat(parts)) : Buffer.concat(parts));
  return file;
}

const mrxs: Entry[] = [
  { name: 'CMU-1.mrxs', bytes: Buffer.from('MRXS key file') },
  { name: 'CMU-1/', folder: true },
  { name: 'CMU-1/Slidedat.ini', bytes: Buffer.from('[GENERAL]\nSLIDE_VERSION = 01.02\n') },
  { name: 'CMU-1/Data0000.dat', bytes: Buffer.alloc(4096, 7) },
  { name: 'CMU-1/Index.dat', bytes: Buffer.alloc(512, 1) },
];

describe('MRXS and VMS zips', () => {
  it('finds the MRXS key file and unpacks it beside its folder, names kept, nothing partial left', async () => {
    const file = await zipOf('CMU-1.zip', [...mrxs, { name: '__MACOSX/._CMU-1.mrxs' }, { name: 'CMU-1/.DS_Store' }]);
    expect(await multiFileSlideIn(file)).toEqual({ kind: 'slide', entry: 'CMU-1.mrxs', ext: '.mrxs' });
    const { folder, slide } = await unpackMultiFileZip(file);
    expect(folder).toBe(unpackedFolder(file));
    expect(slide).toBe(path.join(folder, 'CMU-1.mrxs'));
    expect(await fs.readFile(path.join(folder, 'CMU-1', 'Data0000.dat'))).toEqual(Buffer.alloc(4096, 7));
    expect((await fs.readdir(path.join(folder, 'CMU-1'))).sort()).toEqual(['Data0000.dat', 'Index.dat', 'Slidedat.ini']);
    // Litter from other systems is not unpacked; nothing is left under a temporary name.
    expect((await fs.readdir(folder)).sort()).toEqual(['CMU-1', 'CMU-1.mrxs']);
    expect((await fs.readdir(dir)).sort()).toEqual(['CMU-1.zip', 'CMU-1.zip.unpacked']);
  });

  it('finds a VMS or VMU key file inside a folder, and unpacks the folder again from scratch', async () => {
    for (const ext of ['vms', 'VMU']) {
      const file = await zipOf(`hamamatsu-${ext}.zip`, [
        { name: `case 7/slide.${ext}`, bytes: Buffer.from('[Virtual Microscope Specimen]\nImageFile=slide.jpg\n') },
        { name: 'case 7/slide.jpg', bytes: Buffer.from([0xff, 0xd8, 0xff, 0xd9]) },
        { name: 'case 7/slide_map.jpg', bytes: Buffer.from([0xff, 0xd8, 0xff, 0xd9]) },
      ]);
      expect(await multiFileSlideIn(file)).toEqual({ kind: 'slide', entry: `case 7/slide.${ext}`, ext: `.${ext.toLowerCase()}` });
      await fs.mkdir(unpackedFolder(file));
      await fs.writeFile(path.join(unpackedFolder(file), 'stale'), 'from an interrupted job');
      const { folder, slide } = await unpackMultiFileZip(file);
      expect(slide).toBe(path.join(folder, 'case 7', `slide.${ext}`));
      expect((await fs.readdir(folder)).sort()).toEqual(['case 7']);
    }
  });

  it('is not a multi-file slide without exactly one key file, nor when it is no zip at all', async () => {
    const none = await zipOf('none.zip', [{ name: 'a.jpg' }, { name: 'b/c.dat' }]);
    const two = await zipOf('two.zip', [...mrxs, { name: 'other.vms' }]);
    const plain = path.join(dir, 'plain.zip');
    await fs.writeFile(plain, 'not a zip');
    for (const file of [none, two, plain]) expect(await multiFileSlideIn(file)).toEqual({ kind: 'other' });
    await expect(unpackMultiFileZip(two)).rejects.toEqual(new UnsafeZipError('zip_not_slide'));
  });

  it('refuses names that leave the folder and links, before anything is unpacked', async () => {
    // yazl will not write `..`: the name is patched in both headers, at the same length.
    const escaping = await zipOf('escape.zip', [...mrxs, { name: 'aa/evil.dat' }], (zip) => {
      const from = Buffer.from('aa/evil.dat');
      const to = Buffer.from('../evil.dat');
      for (let at = zip.indexOf(from); at >= 0; at = zip.indexOf(from, at + 1)) to.copy(zip, at);
      return zip;
    });
    const linked = await zipOf('link.zip', [...mrxs, { name: 'CMU-1/Data0001.dat', bytes: Buffer.from('/etc/passwd'), mode: 0o120777 }]);
    for (const file of [escaping, linked]) {
      expect(await multiFileSlideIn(file)).toEqual({ kind: 'refused', note: 'zip_unsafe_path' });
      await expect(unpackMultiFileZip(file)).rejects.toEqual(new UnsafeZipError('zip_unsafe_path'));
      expect(await fs.stat(unpackedFolder(file)).catch(() => null)).toBeNull();
    }
    expect(await fs.stat(path.join(dir, '..', 'evil.dat')).catch(() => null)).toBeNull();
  });

  it('refuses a zip that would inflate far beyond what scanner data does', async () => {
    const bomb = await zipOf('bomb.zip', [...mrxs, { name: 'CMU-1/Data0001.dat', bytes: Buffer.alloc(48 * 2 ** 20) }]);
    expect((await fs.stat(bomb)).size).toBeLessThan(2 ** 20);
    expect(await multiFileSlideIn(bomb)).toEqual({ kind: 'refused', note: 'zip_too_large' });
    await expect(unpackMultiFileZip(bomb)).rejects.toEqual(new UnsafeZipError('zip_too_large'));
  });
});
