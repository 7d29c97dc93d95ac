import fs from 'node:fs/promises';
import path from 'node:path';
import type { Db } from '../../db/connect.js';
import { AppError } from '../../http/errors.js';
import { ownerOfUpload } from '../upload/ownership.js';
import type { AreaStorages } from '../../storage/area-storages.js';
import { hospitalPlace } from '../areas/place.js';
import { placeUpload } from '../slides/place-upload.js';
import { fromStored, isInside, uploadsCompleteRoot } from '../slides/paths.js';
import { linkSection } from '../slides/queries.js';
import { registerSlide } from '../slides/register.js';
import { logSlides } from '../slides/section-log.js';
import { scannerUploader } from './agent-auth.js';
import { sectionByBarcode } from './barcode.js';
import type { AgentScanner } from './queries.js';

/**
 * Turns a scanner's finished upload into a slide of its hospital and binds it by the scan's label barcode: to the
 * case and glass slide the barcode names, else it stays unbound (the "not bound" queue of the uploaded list, for
 * manual binding). Only the scanner's own uploads: the upload id names its owner. The file goes to the storage of its
 * hospital's area, as a person's bind puts it (place-upload.ts). Answers the slide and binding.
 */
export async function bindScan(db: Db, areas: AreaStorages, scanner: AgentScanner, job: { id: number; barcode: string | null }, stored: string, name?: string) {
  const dataDir = areas.base.root;
  const source = fromStored(dataDir, stored);
  const uploads = uploadsCompleteRoot(dataDir);
  if (!isInside(uploads, source)) throw new AppError(422, 'slide.path_not_allowed', { path: stored });
  const owner = ownerOfUpload(path.relative(uploads, source).split(path.sep)[0]!);
  if (!owner || owner.hospitalId !== scanner.hospital_id || owner.userId !== scannerUploader(scanner.id)) throw new AppError(403, 'upload.not_yours', { path: stored });
  if (!(await fs.stat(source).catch(() => null))?.isFile()) throw new AppError(422, 'slide.file_missing', { path: stored });

  const section = job.barcode ? await sectionByBarcode(db, scanner.hospital_id, job.barcode) : undefined;
  const now = new Date();
  const area = await hospitalPlace(db, areas, scanner.hospital_id);
  const placed = await placeUpload(areas, source, area);
  const slideId = await registerSlide(db, area.place.root, placed.file, {
    name: name ?? job.barcode ?? path.basename(source, path.extname(source)),
    hospital_id: scanner.hospital_id, case_id: section?.case_id ?? null, uploaded_by: null, area_id: area.areaId,
  }, area.place.storage).catch(async (err) => {
    await placed.putBack().catch(() => {});
    throw err;
  });
  if (section) await linkSection(db, section.id, slideId);
  const bound = section ? await db.selectFrom('slide_sections').select('id').where('id', '=', section.id).where('slide_id', '=', slideId).executeTakeFirst() : undefined;
  const at = now.toISOString();
  await db.updateTable('scan_jobs').set({
    slide_id: slideId, case_id: bound ? section!.case_id : null, section_id: bound ? section!.id : null,
    bind_status: bound ? 'bound' : 'not_bound', updated_at: at,
  }).where('id', '=', job.id).execute();
  const slide = await db.selectFrom('slides').select(['id', 'name', 'case_id', 'file_path']).where('id', '=', slideId).executeTakeFirstOrThrow();
  // No user did this: the log names the scanner.
  await logSlides(db, 'bind', [slide], null, `scanner ${scanner.name}: ${slide.file_path}`);
  return { slide_id: slideId, case_id: bound ? section!.case_id : null, section_id: bound ? section!.id : null, bind_status: bound ? 'bound' : 'not_bound' };
}
