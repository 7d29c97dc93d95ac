import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import dcmjs from 'dcmjs';
import dicomParser from 'dicom-parser';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_SLIDES } from '../../server/db/seed/demo-slide-files.js';
import { seedDemoSlides } from '../../server/db/seed/demo-slides.js';
import { slidesRoot } from '../../server/modules/slides/paths.js';
import { convertedRealSlide } from '../support/converted-real-slides.js';
import { REAL_DIR, realSlide, realSlides } from '../support/real-slides.js';
import { dciodvfy, dciodvfyInstalled, unzipInto } from './dciodvfy.js';
import { call, databases, ingested, startApp, testApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 30: every instance the DICOM export writes, for the demo slides and every real scanner file in
 * ../shared/data/real (the NDPIs and the JPEG 2000 SVS as the app converts them: tests/support/converted-real-slides.ts),
 * passes Debian's `dciodvfy` with no `Error` line; its warnings are printed. The Patient, Study and Specimen modules and
 * the label instance say what the case and its glass slide say: the patient's name (Chinese, ISO_IR 192), ID, birth
 * date and sex; the specimen, the glass slide's identifier, the label's text and barcode.
 */
const present = realSlides();
const entries = present ? fs.readdirSync(REAL_DIR).filter((f) => !/\.(md|txt)$/i.test(f)).sort() : [];

/** The case the real slides are scanned for, with what a HIS fills in (demo case P2026-00003 of hospital H001). */
const CASE = {
  pathology_number: 'P2026-00003', patient_name: '王芳', gender: 'female', age: 61, age_unit: 'year',
  // A resident identity card number (GB 11643, check digit valid): born 1964-05-17, female (17th digit even).
  id_number: '110105196405170025', admission_number: 'ZY20260031', outpatient_number: 'MZ88017', inspection_doctor: '周明',
};

/** The glass slide the i-th real file is the scan of: block A, section i + 1; the first has a label printed (its barcode), the others carry the code labels print. */
const sectionOf = (i: number) => ({ block_number: 'A', section_number: i + 1, stain: 'HE', ...(i === 0 ? { label: `SL-${CASE.pathology_number}-A1` } : {}) });
const barcodeOf = (i: number) => (i === 0 ? `SL-${CASE.pathology_number}-A1` : `${CASE.pathology_number}-A-${i + 1}`);

interface Exported { slide: string; files: string[]; errors: Map<string, string[]>; warnings: Map<string, string[]> }

const text = (ds: dicomParser.DataSet, tag: string) => {
  const el = ds.elements[tag];
  return el ? new TextDecoder('utf-8').decode(ds.byteArray.subarray(el.dataOffset, el.dataOffset + el.length)).replace(/[\0 ]+$/, '') : undefined;
};
const item = (ds: dicomParser.DataSet, tag: string, i = 0) => ds.elements[tag]?.items?.[i]?.dataSet;
const header = (file: string) => dicomParser.parseDicom(new Uint8Array(fs.readFileSync(file)), { untilTag: 'x7fe00010' });
/** The data set as dcmjs reads it: text decoded by the Specific Character Set, as a standard reader does. */
const naturalized = (file: string) => {
  const bytes = fs.readFileSync(file);
  const { dict } = dcmjs.data.DicomMessage.readFile(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength), { untilTag: '7FE00010' });
  return dcmjs.data.DicomMetaDictionary.naturalizeDataset(dict) as Record<string, any>;
};

describe.runIf(dciodvfyInstalled()).each(databases)('DICOM WSI export against dciodvfy [%s]', (kind) => {
  let h: Harness;
  let app: FastifyInstance;
  let dataDir: string;
  let out: string;
  let admin: string;
  const exported: Exported[] = [];
  const byName = new Map<string, Exported>();

  const bind = async (stored: string, sectionId?: number) => {
    const res = await call(app, 'POST', '/api/data/kfb/bind', { token: admin, payload: { path: stored, ...(sectionId ? { section_id: sectionId } : {}) } });
    expect(res.statusCode, res.body).toBe(200);
    return ingested(app, admin, res.json().data.id);
  };
  /** A copy of a real file (or series folder) under slides/ where an operator would put it; answers its stored path. */
  const place = (from: string, name: string) => {
    const to = path.join(slidesRoot(dataDir), 'real', name);
    fs.mkdirSync(path.dirname(to), { recursive: true });
    fs.cpSync(from, to, { recursive: true });
    return path.relative(dataDir, to).split(path.sep).join('/');
  };
  const exportOf = async (slideId: number, slide: string) => {
    const res = await call(app, 'GET', `/api/data/kfb/${slideId}/dicom`, { token: admin });
    expect(res.statusCode, res.body.slice(0, 300)).toBe(200);
    const files = await unzipInto(res.rawPayload, path.join(out, String(slideId)));
    const errors = new Map<string, string[]>(), warnings = new Map<string, string[]>();
    for (const f of files) {
      const found = await dciodvfy(f);
      errors.set(path.basename(f), found.errors);
      warnings.set(path.basename(f), found.warnings);
    }
    const done = { slide, files, errors, warnings };
    exported.push(done);
    byName.set(slide, done);
    return done;
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-dicom-vfy-'));
    out = path.join(dataDir, 'exported');
    h = await startApp(kind);
    app = await testApp(h.db, { dataDir });
    await app.ready();
    admin = await tokenFor(app, 'admin');

    // The demo slides as a fresh installation has them: two on cases, two not (one a KFB).
    await seedDemoSlides(h.db, dataDir);
    const demo = await h.db.selectFrom('slides').select(['id', 'name']).orderBy('id').execute();
    expect(demo.map((s) => s.name)).toEqual(DEMO_SLIDES.map((s) => s.name));
    for (const s of demo) await exportOf(s.id, s.name);

    // The real files: each the scan of a glass slide of one case, bound as the app serves it (converted where it converts).
    const hospital = (await h.db.selectFrom('hospitals').select('id').where('code', '=', 'H001').executeTakeFirstOrThrow()).id;
    const { pathology_number, ...patient } = CASE;
    await h.db.updateTable('cases').set(patient).where('hospital_id', '=', hospital).where('pathology_number', '=', pathology_number).execute();
    if (!present) return;
    const sections = await call(app, 'POST', '/api/data/kfb/sectionAdd', { token: admin, payload: { pathology_number, sections: entries.map((_, i) => sectionOf(i)) } });
    expect(sections.statusCode, sections.body).toBe(200);
    const sectionIds: number[] = sections.json().data.map((s: { id: number }) => s.id);
    for (const [i, name] of entries.entries()) {
      // The app decides: a probe copy, bound without a section, is read in place (ready) or handed to conversion.
      const probe = await bind(place(realSlide(name), `probe/${name}`));
      const file = probe.status === 'converting' ? place(await convertedRealSlide(name), `${name}.tiff`) : place(realSlide(name), name);
      const row = await bind(file, sectionIds[i]);
      expect(row, name).toMatchObject({ status: 'ready' });
      await exportOf(row.id, name);
    }
  }, 600_000);

  afterAll(async () => {
    await app?.close();
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('has dciodvfy find no error in any instance of the demo slides and the real files', () => {
    const summary = exported.map((e) => {
      const errors = [...e.errors.values()].flat().length;
      return `${e.slide}: ${e.files.length} instances, ${errors} errors, ${[...e.warnings.values()].flat().length} warnings`;
    });
    console.info(`dciodvfy [${kind}]\n${summary.join('\n')}`);
    // Each distinct finding once, with how many instances have it (item numbers and values left out).
    const tally = (pick: (e: Exported) => string[][]) => {
      const seen = new Map<string, number>();
      for (const e of exported) for (const line of pick(e).flat()) {
        const key = line.replace(/\[\d+\]/g, '').replace(/= <[^>]*>/g, '= <…>');
        seen.set(key, (seen.get(key) ?? 0) + 1);
      }
      return [...seen].sort((a, b) => b[1] - a[1]).map(([line, n]) => `${n} · ${line}`).join('\n');
    };
    console.info(`dciodvfy warnings [${kind}] (instances · text)\n${tally((e) => [...e.warnings.values()])}`);
    const errors = tally((e) => [...e.errors.values()]);
    if (errors) console.info(`dciodvfy errors [${kind}] (instances · text)\n${errors}`);
    expect(exported.length).toBe(DEMO_SLIDES.length + entries.length);
    for (const e of exported) {
      expect(e.files.length, e.slide).toBeGreaterThan(0);
      for (const [file, errors] of e.errors) expect(errors, `${e.slide} ${file}`).toEqual([]);
    }
  });

  it.runIf(present)('writes the case\'s patient, study and specimen, in UTF-8 (ISO_IR 192)', () => {
    for (const [i, name] of entries.entries()) {
      for (const f of byName.get(name)!.files) {
        const ds = header(f);
        expect(ds.string('x00080005'), f).toBe('ISO_IR 192');
        expect(text(ds, 'x00100010'), f).toBe(CASE.patient_name);
        expect(ds.string('x00100020'), f).toBe(CASE.admission_number);
        expect(ds.string('x00100030'), f).toBe('19640517');
        expect(ds.string('x00100040'), f).toBe('F');
        expect(ds.string('x00101010'), f).toBe('061Y');
        expect(text(ds, 'x00080090'), f).toBe(CASE.inspection_doctor);
        expect(ds.string('x00080050'), f).toBe(CASE.pathology_number);
        // The glass slide is the container; the specimen on it is the tissue of block A, stained H&E.
        expect(ds.string('x00400512'), f).toBe(barcodeOf(i));
        const specimen = item(ds, 'x00400560')!;
        expect(specimen.string('x00400551'), f).toBe(`${CASE.pathology_number}-A`);
        expect(specimen.string('x00400554'), f).toMatch(/^2\.25\.\d+$/);
      }
      // A standard reader decodes the Chinese text by ISO_IR 192 (dcmjs, the library DICOMweb viewers use). Inside
      // sequence items dcmjs 0.51 still decodes Latin-1 (dcmjs-org/dcmjs#503): those bytes are read as UTF-8 here.
      const read = naturalized(byName.get(name)!.files.at(-1)!);
      expect(read.PatientName, name).toEqual([{ Alphabetic: CASE.patient_name }]);
      expect(read.ReferringPhysicianName, name).toEqual([{ Alphabetic: CASE.inspection_doctor }]);
      expect(text(item(header(byName.get(name)!.files[0]), 'x00400560')!, 'x00400600'), name).toBe('颈部淋巴结');
    }
  });

  it('writes a demo slide\'s case (or, unbound, nothing of a patient) and its Chinese name', () => {
    const [bound, , unbound] = DEMO_SLIDES.map((s) => naturalized(byName.get(s.name)!.files.at(-1)!));
    expect(bound).toMatchObject({ SpecificCharacterSet: 'ISO_IR 192', PatientName: [{ Alphabetic: '张伟' }], PatientSex: 'M', PatientAge: '056Y', AccessionNumber: 'P2026-00001', SeriesDescription: DEMO_SLIDES[0].name });
    expect([bound.SpecimenDescriptionSequence].flat()[0].SpecimenIdentifier).toBe('P2026-00001');
    expect(unbound).toMatchObject({ PatientID: '', AccessionNumber: '', ContainerIdentifier: DEMO_SLIDES[2].name, SeriesDescription: DEMO_SLIDES[2].name });
    expect(unbound.PatientName).toEqual([]);
  });

  it.runIf(present)('writes the glass slide\'s label text and barcode into the label instance', () => {
    let labels = 0;
    for (const [i, name] of entries.entries()) {
      const label = byName.get(name)!.files.find((f) => f.endsWith('-label.dcm'));
      if (!label) continue;
      const ds = header(label);
      expect(ds.string('x00080008')!.split('\\')[2]).toBe('LABEL');
      expect(ds.string('x22000005'), name).toBe(barcodeOf(i));
      expect(text(ds, 'x22000002'), name).toBe(`${CASE.pathology_number} A-${i + 1} HE`);
      labels++;
    }
    // CMU-1-Small-Region.svs has one (and the label slot of the glass slide with a printed label).
    expect(labels).toBeGreaterThan(0);
    expect(byName.get(entries[0])!.files.some((f) => f.endsWith('-label.dcm'))).toBe(true);
  });
});
