import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DeepZoomError, dziLevelCount, dziLevelDims, dziTileRect, parseDziDescriptor } from '../../server/modules/slides/conversion/deep-zoom/descriptor.js';
import { sniffFormat } from '../../server/modules/tiles/sniff.js';
import { readTiffStructure } from '../../server/modules/tiles/tiff/ifd-parser.js';
import { isOmeXml, parseOmeXml } from '../../server/modules/tiles/tiff/ome-xml.js';
import { Tag } from '../../server/modules/tiles/tiff/tags.js';
import { TiffWriter, type EntrySpec } from '../../server/modules/tiles/tiff/writer.js';

let dir: string;
beforeAll(() => { dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-formats-')); });
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('OME-XML', () => {
  const ome = `<?xml version="1.0" encoding="UTF-8"?>
<ome:OME xmlns:ome="http://www.openmicroscopy.org/Schemas/OME/2016-06">
  <ome:Instrument ID="Instrument:0">
    <ome:Objective ID="Objective:0:0" NominalMagnification="10.0"/>
    <ome:Objective ID="Objective:0:1" NominalMagnification="40.0"/>
  </ome:Instrument>
  <ome:Image ID="Image:0" Name="H&amp;E section">
    <ome:AcquisitionDate>2022-11-30T23:59:01.250Z</ome:AcquisitionDate>
    <ome:ObjectiveSettings ID="Objective:0:1"/>
    <ome:Pixels ID="Pixels:0" SizeX="50000" SizeY="40000" SizeC="3" PhysicalSizeX="226.5" PhysicalSizeXUnit="nm" PhysicalSizeY="0.2265" Type="uint8">
      <ome:TiffData IFD="0" PlaneCount="1"/>
    </ome:Pixels>
  </ome:Image>
  <ome:Image ID="Image:1" Name="macro image"><ome:Pixels ID="Pixels:1"><ome:TiffData IFD="2"/></ome:Pixels></ome:Image>
  <ome:Image ID="Image:2" Name="Label"><ome:Pixels ID="Pixels:2"><ome:TiffData IFD="1"/></ome:Pixels></ome:Image>
</ome:OME>`;

  it('reads pixel size in any length unit, the objective the image uses, and the acquisition time', () => {
    expect(isOmeXml(ome)).toBe(true);
    const d = parseOmeXml(ome);
    expect(d.mppX).toBeCloseTo(0.2265, 9);
    // PhysicalSizeYUnit absent: the default unit, µm.
    expect(d.mppY).toBeCloseTo(0.2265, 9);
    expect(d.appMag).toBe(40);
    expect(d.scanAt).toBe('2022-11-30T23:59:01Z');
  });

  it('names the directories holding the label and macro images', () => {
    expect(parseOmeXml(ome).associated).toEqual([{ name: 'macro', page: 2 }, { name: 'label', page: 1 }]);
  });

  it('leaves unknown what the XML does not say', () => {
    const bare = '<OME><Image ID="Image:0"><Pixels SizeX="10" SizeY="10"><TiffData/></Pixels></Image></OME>';
    expect(parseOmeXml(bare)).toEqual({ mppX: null, mppY: null, appMag: null, scanAt: null, associated: [] });
    expect(isOmeXml('Aperio Image Library v11|MPP = 0.25')).toBe(false);
  });
});

describe('Deep Zoom descriptor', () => {
  it('reads tile size, overlap, format and size', () => {
    const d = parseDziDescriptor(`<?xml version="1.0" encoding="UTF-8"?>
<Image xmlns="http://schemas.microsoft.com/deepzoom/2008" Format="jpeg" Overlap="1" TileSize="254"><Size Height="800" Width="1100"/></Image>`);
    expect(d).toEqual({ tileSize: 254, overlap: 1, format: 'jpeg', width: 1100, height: 800 });
    expect(dziLevelCount(d)).toBe(12);
    expect(dziLevelDims(d, 11)).toEqual({ width: 1100, height: 800 });
    expect(dziLevelDims(d, 9)).toEqual({ width: 275, height: 200 });
    expect(dziLevelDims(d, 0)).toEqual({ width: 1, height: 1 });
  });

  it('knows the pixels each stored tile covers, overlap included', () => {
    const d = parseDziDescriptor('<Image Format="png" Overlap="2" TileSize="254"><Size Width="600" Height="300"/></Image>');
    const top = dziLevelDims(d, dziLevelCount(d) - 1);
    expect(dziTileRect(d, top, 0, 0)).toEqual({ x: 0, y: 0, width: 256, height: 256 });
    expect(dziTileRect(d, top, 1, 0)).toEqual({ x: 252, y: 0, width: 258, height: 256 });
    expect(dziTileRect(d, top, 2, 1)).toEqual({ x: 506, y: 252, width: 94, height: 48 });
  });

  it('refuses descriptors it cannot convert', () => {
    for (const bad of [
      '<Image Format="webp" TileSize="254"><Size Width="10" Height="10"/></Image>',
      '<Image Format="jpeg" Overlap="254" TileSize="254"><Size Width="10" Height="10"/></Image>',
      '<Image Format="jpeg" TileSize="254"></Image>',
      '<Image Format="jpeg" TileSize="-3"><Size Width="10" Height="10"/></Image>',
      '{"Image": {"TileSize": 254}}',
    ]) {
      expect(() => parseDziDescriptor(bad), bad).toThrow(DeepZoomError);
    }
  });
});

describe('format sniffing', () => {
  it('tells slides apart by their first bytes', () => {
    const b = (...bytes: number[]) => Buffer.from(bytes);
    expect(sniffFormat(b(0x49, 0x49, 42, 0, 8, 0, 0, 0))).toBe('tiff');
    expect(sniffFormat(b(0x4d, 0x4d, 0, 42, 0, 0, 0, 8))).toBe('tiff');
    expect(sniffFormat(b(0x49, 0x49, 43, 0, 8, 0, 0, 0))).toBe('tiff');
    expect(sniffFormat(Buffer.from('\0\0\0\0KFB\x01'))).toBe('kfb');
    expect(sniffFormat(b(0x50, 0x4b, 3, 4, 20, 0))).toBe('zip');
    expect(sniffFormat(b(0xff, 0xd8, 0xff, 0xe0))).toBe('jpeg');
    expect(sniffFormat(b(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a))).toBe('png');
    expect(sniffFormat(Buffer.from('KFB not really'))).toBeNull();
    expect(sniffFormat(Buffer.alloc(0))).toBeNull();
  });
});

describe('TIFF writer SubIFDs', () => {
  it.each([false, true])('hangs reduced levels from their directory (BigTIFF: %s)', async (bigTiff) => {
    const out = path.join(dir, `sub-${bigTiff}.tif`);
    const writer = await TiffWriter.create(out);
    const at = await writer.append(Buffer.alloc(64));
    const dirOf = (w: number): EntrySpec[] => [
      { tag: Tag.ImageWidth, type: 'long', values: [w] },
      { tag: Tag.ImageLength, type: 'long', values: [w] },
      { tag: Tag.StripOffsets, type: 'offsets', values: [at] },
      { tag: Tag.StripByteCounts, type: 'long', values: [64] },
    ];
    writer.addDirectory(dirOf(400), [dirOf(200), dirOf(100)]);
    writer.addDirectory(dirOf(50));
    await writer.finish(bigTiff);
    const bytes = fs.readFileSync(out);
    const s = await readTiffStructure(async (p, l) => bytes.subarray(p, p + l));
    expect(s.bigTiff).toBe(bigTiff);
    expect(s.ifds.map((i) => [i.page, i.subifd, i.children.length])).toEqual([[0, -1, 2], [1, -1, 0]]);
    expect(s.ifds[0].children.map((c) => [c.page, c.subifd])).toEqual([[0, 0], [0, 1]]);
  });
});
