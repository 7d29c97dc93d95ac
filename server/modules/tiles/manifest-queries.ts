import type { Db } from '../../db/connect.js';

/**
 * What a case's IIIF manifest is made of. Through the request-scoped handle (http/access-scope.ts): a case of another
 * hospital or outside the reader's subspecialty directories, and its slides, are not found, as on every case route.
 */
export async function manifestCase(db: Db, caseId: number) {
  return db.selectFrom('cases').innerJoin('hospitals', 'hospitals.id', 'cases.hospital_id')
    .select(['cases.id', 'cases.pathology_number', 'cases.specimen_name', 'hospitals.name as hospital_name', 'hospitals.en_name as hospital_en_name'])
    .where('cases.id', '=', caseId).executeTakeFirst();
}

export type ManifestCase = NonNullable<Awaited<ReturnType<typeof manifestCase>>>;

/** The case's slides that can be shown (ready, size known), with the glass slide each was scanned from when bound to one. */
export async function manifestSlides(db: Db, caseId: number) {
  const rows = await db.selectFrom('slides').leftJoin('slide_sections', 'slide_sections.slide_id', 'slides.id')
    .select(['slides.id', 'slides.name', 'slides.width', 'slides.height', 'slide_sections.block_number', 'slide_sections.section_number', 'slide_sections.stain'])
    .where('slides.case_id', '=', caseId).where('slides.status', '=', 'ready')
    .where('slides.width', 'is not', null).where('slides.height', 'is not', null)
    .orderBy('slides.id').execute();
  const seen = new Set<number>();
  return rows.filter((r) => !seen.has(r.id) && !!seen.add(r.id))
    .map((r) => ({ ...r, width: Number(r.width), height: Number(r.height) }));
}

export type ManifestSlide = Awaited<ReturnType<typeof manifestSlides>>[number];
