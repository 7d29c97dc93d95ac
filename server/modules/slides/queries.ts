import { sql, type Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { AppError } from '../../http/errors.js';
import { thumbUrl } from './hooks.js';
import type { LoggedSlide } from './section-log.js';

/**
 * A slide row already holds one of these stored paths (the file, or the TIFF converted from it): any slide, seen
 * or not by the user (the row scope left out), as only whether is learnt.
 */
export async function fileBound(db: Db, storedPaths: string[]): Promise<boolean> {
  return !!(await db.withoutPlugins().selectFrom('slides').select('id').where('file_path', 'in', storedPaths).executeTakeFirst());
}

/**
 * The slide, if the request may see it (its row scope: the user's hospitals and directories) and, given `hospitalIds`
 * (a list scope: the chosen hospital), it belongs to one of them; what a download logs of it.
 */
export async function slideIn(db: Db, id: number, hospitalIds?: readonly number[]): Promise<LoggedSlide | undefined> {
  // An empty list matches nothing (hospital 0 does not exist); `in ()` is not valid SQL.
  return db.selectFrom('slides').select(['id', 'name', 'case_id', 'file_path']).where('id', '=', id)
    .$if(hospitalIds !== undefined, (q) => q.where('hospital_id', 'in', hospitalIds!.length ? [...hospitalIds!] : [0])).executeTakeFirst();
}

/** What the download route serves and checks: the file, its name, and whose hospital it is. */
export async function slideFile(db: Db, id: number) {
  return db.selectFrom('slides').select(['name', 'file_path', 'hospital_id', 'area_id']).where('id', '=', id).executeTakeFirst();
}

/**
 * Slides move to a case (null: unbound), leaving the sections of their old case, in one transaction. Answers
 * the moved rows as the section log records them.
 */
export async function moveSlides(db: Db, ids: number[], caseId: number | null, sectionId: number | null = null): Promise<LoggedSlide[]> {
  return db.transaction().execute(async (trx) => {
    await trx.updateTable('slides').set({ case_id: caseId, updated_at: new Date().toISOString() }).where('id', 'in', ids).execute();
    if (sectionId === null) await releaseSections(trx, ids, caseId);
    else {
      // A file is the scan of one glass slide: it leaves any other it was linked to, and takes this one only while it is
      // free (or already its own); a glass slide bound meanwhile by someone else refuses the whole move.
      await trx.updateTable('slide_sections').set({ slide_id: null }).where('slide_id', 'in', ids).where('id', '<>', sectionId).execute();
      const linked = await trx.updateTable('slide_sections').set({ slide_id: ids[0]! }).where('id', '=', sectionId)
        .where((eb) => eb.or([eb('slide_id', 'is', null), eb('slide_id', '=', ids[0]!)])).executeTakeFirst();
      if (Number(linked.numUpdatedRows) === 0) throw new AppError(409, 'section.already_bound');
    }
    return trx.selectFrom('slides').select(['id', 'name', 'case_id', 'file_path']).where('id', 'in', ids).execute();
  });
}

/**
 * The glass slides a label code names in the hospital (and the request's row scope): the text printed as its `label`
 * when one was given, else the code the slide labels carry, `<pathology number>-<block>-<section>` (cases/labels.ts).
 */
export function glassSlidesByCode(db: Db, hospitalId: number, code: string) {
  const composed = sql<string>`c.pathology_number || '-' || s.block_number || '-' || CAST(s.section_number AS VARCHAR(16))`;
  return db.selectFrom('slide_sections as s').innerJoin('cases as c', 'c.id', 's.case_id')
    .select(['s.id', 's.case_id', 's.slide_id'])
    .where('s.hospital_id', '=', hospitalId)
    .where((eb) => eb.or([eb('s.label', '=', code), eb.and([eb('s.label', 'is', null), eb(composed, '=', code)])]))
    .orderBy('s.id');
}

/** Of these codes (a label's OCR reading), those that name a glass slide of the hospital not yet scanned, with what it is. */
export function unscannedGlassByCodes(db: Db, hospitalId: number, codes: string[]) {
  const composed = sql<string>`c.pathology_number || '-' || s.block_number || '-' || CAST(s.section_number AS VARCHAR(16))`;
  return db.selectFrom('slide_sections as s').innerJoin('cases as c', 'c.id', 's.case_id')
    .select(['s.id', 's.case_id', 'c.pathology_number', 's.block_number', 's.section_number', 's.stain', 's.label'])
    .where('s.hospital_id', '=', hospitalId).where('s.slide_id', 'is', null)
    .where((eb) => eb.or([eb('s.label', 'in', codes), eb.and([eb('s.label', 'is', null), eb(composed, 'in', codes)])]))
    .orderBy('s.id').limit(10).execute();
}

/** How many of each the bind dialog offers: the newest first; older ones are still bound by typing their code. */
const CHOICE_LIMIT = 500;

/**
 * What the bind dialog offers in the working hospital: glass slides that have no scan yet (with their case's number,
 * block, number and stain) and cases by number, the newest first.
 */
export async function bindChoices(db: Db, hospitalId: number) {
  const glass = await db.selectFrom('slide_sections as s').innerJoin('cases as c', 'c.id', 's.case_id')
    .select(['s.id', 's.case_id', 'c.pathology_number', 's.block_number', 's.section_number', 's.stain', 's.label'])
    .where('s.hospital_id', '=', hospitalId).where('s.slide_id', 'is', null)
    .orderBy('s.case_id', 'desc').orderBy('s.block_number').orderBy('s.section_number').limit(CHOICE_LIMIT).execute();
  const cases = await db.selectFrom('cases').select(['id', 'pathology_number']).where('hospital_id', '=', hospitalId).orderBy('id', 'desc').limit(CHOICE_LIMIT).execute();
  return {
    glass_slides: glass.map((g) => ({
      id: g.id, case_id: g.case_id, pathology_number: g.pathology_number, block_number: g.block_number, section_number: g.section_number, stain: g.stain,
      code: g.label ?? `${g.pathology_number}-${g.block_number}-${g.section_number}`,
    })),
    cases: cases.map((c) => ({ id: c.id, pathology_number: c.pathology_number })),
  };
}

export interface NewSection { block_number: string; section_number?: number; stain?: string; label?: string }

/**
 * Glass slides of a case's blocks, all or none: a number taken (or given twice) refuses the whole request.
 * A section without a number gets the next free one of its block. Answers the new ids in the given order.
 */
export async function addSections(db: Db, hospitalId: number, caseId: number, sections: NewSection[], userId: number): Promise<number[]> {
  const now = new Date().toISOString();
  return db.transaction().execute(async (trx) => {
    const created: number[] = [];
    for (const s of sections) {
      const block = s.block_number.trim();
      const number = s.section_number ?? (await nextNumber(trx, caseId, block));
      const taken = await trx.selectFrom('slide_sections').select('id')
        .where('case_id', '=', caseId).where('block_number', '=', block).where('section_number', '=', number).executeTakeFirst();
      if (taken) throw new AppError(409, 'section.duplicate', { section: `${block}-${number}` });
      const { id } = await trx.insertInto('slide_sections').values({
        hospital_id: hospitalId, case_id: caseId, block_number: block, section_number: number, stain: s.stain?.trim() || 'HE',
        label: s.label?.trim() || null, slide_id: null, created_by: userId, created_at: now,
      }).returning('id').executeTakeFirstOrThrow();
      created.push(id);
    }
    return created;
  });
}

async function nextNumber(trx: Kysely<Database>, caseId: number, block: string): Promise<number> {
  const row = await trx.selectFrom('slide_sections').select((eb) => eb.fn.max('section_number').as('n'))
    .where('case_id', '=', caseId).where('block_number', '=', block).executeTakeFirst();
  return Number(row?.n ?? 0) + 1;
}

type SectionQuery = ReturnType<typeof baseQuery>;
const baseQuery = (db: Db) => db.selectFrom('slide_sections')
  .innerJoin('cases', 'cases.id', 'slide_sections.case_id')
  .leftJoin('slides', 'slides.id', 'slide_sections.slide_id')
  .select([
    'slide_sections.id', 'slide_sections.case_id', 'cases.pathology_number', 'slide_sections.block_number', 'slide_sections.section_number',
    'slide_sections.stain', 'slide_sections.label', 'slide_sections.slide_id', 'slides.name as slide_name', 'slides.status as slide_status',
    'slide_sections.created_at',
  ]);

/** Sections as the browser shows them: the name printed on the glass (number-block-section stain) and the bound file. */
async function sectionRows(db: Db, where: (q: SectionQuery) => SectionQuery) {
  const rows = await where(baseQuery(db)).orderBy('slide_sections.block_number').orderBy('slide_sections.section_number').orderBy('slide_sections.id').execute();
  return rows.map((r) => ({
    ...r,
    name: `${r.pathology_number}-${r.block_number}-${r.section_number} ${r.stain}`,
    thumb_url: r.slide_id ? thumbUrl(r.slide_id) : null,
  }));
}

export const sectionsById = (db: Db, ids: number[]) => sectionRows(db, (q) => q.where('slide_sections.id', 'in', ids));

/** A case's sections within the hospitals the user sees now (and the request's row scope). */
export const sectionsOfCase = (db: Db, caseId: number, hospitalIds: number[]) =>
  sectionRows(db, (q) => q.where('slide_sections.case_id', '=', caseId).where('slide_sections.hospital_id', 'in', hospitalIds));

/** Binding a file to a section: the section must be the working hospital's (and one the request may see) and still empty. Answers its case. */
export async function sectionForBinding(db: Db, hospitalId: number, sectionId: number): Promise<{ id: number; case_id: number }> {
  const section = await db.selectFrom('slide_sections').select(['id', 'case_id', 'slide_id'])
    .where('id', '=', sectionId).where('hospital_id', '=', hospitalId).executeTakeFirst();
  if (!section) throw new AppError(404, 'section.not_found');
  if (section.slide_id !== null) throw new AppError(409, 'section.already_bound');
  return section;
}

/** The bound file becomes the section's scan; a section bound meanwhile by a concurrent bind keeps its own. */
export async function linkSection(db: Db, sectionId: number, slideId: number): Promise<void> {
  await db.updateTable('slide_sections').set({ slide_id: slideId }).where('id', '=', sectionId).where('slide_id', 'is', null).execute();
}

/** A slide moved to another case (or unbound) leaves the section it was the scan of. */
export async function releaseSections(db: Kysely<Database>, slideIds: number[], keepCaseId: number | null): Promise<void> {
  let q = db.updateTable('slide_sections').set({ slide_id: null }).where('slide_id', 'in', slideIds);
  if (keepCaseId !== null) q = q.where('case_id', '<>', keepCaseId);
  await q.execute();
}

/** A slide's processing status and the hospital area its files are in (the caller has found the slide in scope). */
export const slideStatus = (db: Db, id: number) =>
  db.selectFrom('slides').select(['status', 'area_id']).where('id', '=', id).executeTakeFirstOrThrow();

/** What the label barcode job needs of a slide: its hospital, case, file, and whether a glass slide already has it. */
export async function slideForLabelBind(db: Db, id: number) {
  const slide = await db.selectFrom('slides').select(['id', 'name', 'hospital_id', 'case_id', 'file_path', 'status', 'has_label', 'area_id'])
    .where('id', '=', id).executeTakeFirst();
  if (!slide) return undefined;
  const linked = await db.selectFrom('slide_sections').select('id').where('slide_id', '=', id).executeTakeFirst();
  return { ...slide, linked: linked !== undefined };
}
