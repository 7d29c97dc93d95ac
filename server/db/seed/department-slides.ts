import fs from 'node:fs';
import path from 'node:path';
import type { Kysely } from 'kysely';
import type { Database } from '../schema.js';
import { thumbPath } from '../../modules/slides/paths.js';
import { reached, stepAt } from './department-plan.js';
import type { People, SeededCase } from './demo-department.js';

type Trx = Kysely<Database>;

export interface DepartmentSlides {
  /** The digital slides of each case (case id → slide ids), bound to its glass slides. */
  byCase: Map<number, number[]>;
}

/** Where the department's slide files are: links to the base demo's files, one per digital slide. */
const DEPARTMENT_DIR = 'slides/demo/department';

/**
 * Digital slides for every glass slide of a case whose slides are made, scanned by the department's scanners and
 * bound to their glass slide, with their QC grades. No slide file is written: each is a hard link to one of the base
 * demo's (demo-slide-files.ts; the same bytes, read by the same reader, its thumbnail linked too), so deleting one
 * deletes only its link. Without the base demo's files on local disk (tests; object storage) there are none.
 */
export async function seedDepartmentSlides(trx: Trx, dataDir: string, cases: SeededCase[], p: People, now: Date): Promise<DepartmentSlides> {
  const byCase = new Map<number, number[]>();
  const sources = (await trx.selectFrom('slides').selectAll().where('file_path', 'like', 'slides/demo/demo-%').where('status', '=', 'ready').orderBy('id').execute())
    .filter((s) => fs.existsSync(path.join(dataDir, s.file_path)));
  if (!sources.length) return { byCase };
  const dir = path.join(dataDir, DEPARTMENT_DIR);
  fs.mkdirSync(dir, { recursive: true });
  fs.mkdirSync(path.dirname(thumbPath(dataDir, 0)), { recursive: true });
  const scanners = await trx.selectFrom('scanners').select(['id', 'hospital_id']).orderBy('id').execute();
  let n = 0;
  for (const c of cases) {
    if (!reached(c.plan.stage, 'to_allot')) continue;
    const ids: number[] = [];
    for (const section of c.sections) {
      const source = sources[n++ % sources.length];
      const ext = path.extname(source.file_path);
      const stored = `${DEPARTMENT_DIR}/${c.hospitalId}-${section.label}${ext}`;
      const file = path.join(dataDir, stored);
      if (!fs.existsSync(file)) fs.linkSync(path.join(dataDir, source.file_path), file);
      const scanned = stepAt(c.plan, 'cover', now);
      const { id: _id, ...facts } = source;
      const { id } = await trx.insertInto('slides').values({
        ...facts, hospital_id: c.hospitalId, case_id: c.id, name: `${section.label} HE`, file_path: stored, scan_at: scanned,
        uploaded_by: p.scanner.id, progress: null, created_at: scanned, updated_at: scanned,
      }).returning('id').executeTakeFirstOrThrow();
      const thumb = thumbPath(dataDir, source.id);
      if (fs.existsSync(thumb) && !fs.existsSync(thumbPath(dataDir, id))) fs.linkSync(thumb, thumbPath(dataDir, id));
      await trx.updateTable('slide_sections').set({ slide_id: id }).where('id', '=', section.id).execute();
      const scanner = scanners.filter((s) => s.hospital_id === c.hospitalId)[n % 2] ?? scanners.find((s) => s.hospital_id === c.hospitalId);
      if (scanner) {
        const started = new Date(new Date(scanned).getTime() - 6 * 60_000).toISOString();
        await trx.insertInto('scan_jobs').values({
          hospital_id: c.hospitalId, scanner_id: scanner.id, barcode: section.label, scan_level: 40, scale: 0.25, result: 'scanned',
          started_at: started, finished_at: scanned, duration_ms: 300_000 + (n % 7) * 20_000, slide_id: id, case_id: c.id, section_id: section.id,
          bind_status: 'bound', rescan: 0, message: null, created_at: started, updated_at: scanned,
        }).execute();
      }
      await seedQc(trx, c, id, n, p, scanned, now);
      ids.push(id);
    }
    byCase.set(c.id, ids);
  }
  return { byCase };
}

/** QC of a digital slide: graded by QC a few hours after its scan (most qualified, a few blurry), with its focus share. */
async function seedQc(trx: Trx, c: SeededCase, slideId: number, n: number, p: People, scanned: string, now: Date): Promise<void> {
  const gradedAt = new Date(new Date(scanned).getTime() + 3 * 3600_000);
  const graded = gradedAt.getTime() < now.getTime();
  const grade = n % 17 === 0 ? 'unqualified' : n % 6 === 0 ? 'basic' : 'qualified';
  const blur = grade === 'unqualified' ? 0.22 + (n % 5) / 100 : grade === 'basic' ? 0.08 + (n % 3) / 100 : (n % 5) / 100;
  await trx.insertInto('slide_qc').values({
    hospital_id: c.hospitalId, slide_id: slideId, blur_share: blur, focus_status: 'done',
    grade: graded ? grade : null, reasons: graded && grade !== 'qualified' ? 'blurry' : null, suggested_reasons: blur > 0.1 ? 'blurry' : null,
    judge: null, remark: graded && grade === 'unqualified' ? '局部失焦，建议重扫' : null,
    qc_by: graded ? p.qc.id : null, qc_at: graded ? gradedAt.toISOString() : null, version: graded ? 1 : 0, created_at: scanned, updated_at: graded ? gradedAt.toISOString() : scanned,
  }).execute();
}
