import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import type { Db } from '../../db/connect.js';
import type { Database } from '../../db/schema.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { hospitalScope, workingHospital } from '../../resources/hospital-scope.js';
import type { ResourceDef } from '../../resources/definition.js';
import { namedCase } from '../cases/lookup.js';
import { thumbUrl } from './hooks.js';

const SectionInput = Type.Object({
  block_number: Type.String({ minLength: 1, maxLength: 32, pattern: '^[A-Za-z0-9][A-Za-z0-9-]*$', description: 'Wax block, e.g. 1 or A2' }),
  section_number: Type.Optional(Type.Integer({ minimum: 1, maximum: 9999, description: 'Omitted: the next free number of the block' })),
  stain: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'HE (default), an IHC marker or a special stain' })),
  label: Type.Optional(Type.String({ maxLength: 128, description: 'The text or barcode printed on the glass label' })),
});
const AddBody = Type.Object({
  pathology_number: Type.Optional(Type.String({ minLength: 1, maxLength: 64 })),
  case_id: Type.Optional(Type.Integer({ minimum: 1 })),
  sections: Type.Array(SectionInput, { minItems: 1, maxItems: 200 }),
});
type AddBody = { pathology_number?: string; case_id?: number; sections: { block_number: string; section_number?: number; stain?: string; label?: string }[] };

/**
 * Spec §7 `POST data/kfb/sectionAdd` and the section list of a case: the glass slides made from a case's
 * blocks, each later bound to its scanned file (`POST data/kfb/bind` with `section_id`).
 */
export function sectionRoutes(app: FastifyInstance, db: Db, slidesDef: ResourceDef): void {
  const tags = ['resource:slides'];

  app.post('/api/data/kfb/sectionAdd', { config: { access: { permission: 'case_production' } }, schema: { tags, body: AddBody } }, async (request) => {
    const body = request.body as AddBody;
    const hospitalId = workingHospital(request);
    const caseId = await namedCase(db, hospitalId, body);
    if (caseId === null) throw new AppError(422, 'section.case_required');
    const now = new Date().toISOString();
    const ids = await db.transaction().execute(async (trx) => {
      const created: number[] = [];
      for (const s of body.sections) {
        const block = s.block_number.trim();
        const number = s.section_number ?? (await nextNumber(trx, caseId, block));
        const taken = await trx.selectFrom('slide_sections').select('id')
          .where('case_id', '=', caseId).where('block_number', '=', block).where('section_number', '=', number).executeTakeFirst();
        if (taken) throw new AppError(409, 'section.duplicate', { section: `${block}-${number}` });
        const { id } = await trx.insertInto('slide_sections').values({
          hospital_id: hospitalId, case_id: caseId, block_number: block, section_number: number, stain: s.stain?.trim() || 'HE',
          label: s.label?.trim() || null, slide_id: null, created_by: request.auth!.id, created_at: now,
        }).returning('id').executeTakeFirstOrThrow();
        created.push(id);
      }
      return created;
    });
    return ok(await sectionRows(db, (q) => q.where('slide_sections.id', 'in', ids)));
  });

  app.get('/api/data/kfb/sections/:caseId', {
    config: { access: { permission: 'slide_view' }, audit: false },
    schema: { tags, params: Type.Object({ caseId: Type.Integer({ minimum: 1 }) }) },
  }, async (request) => {
    const { caseId } = request.params as { caseId: number };
    const scope = hospitalScope(slidesDef, request) ?? [];
    return ok(await sectionRows(db, (q) => q.where('slide_sections.case_id', '=', caseId).where('slide_sections.hospital_id', 'in', scope)));
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

/** Binding a file to a section: the section must be the working hospital's and still empty. Answers its case. */
export async function sectionForBinding(db: Db, hospitalId: number, sectionId: number): Promise<{ id: number; case_id: number }> {
  const section = await db.selectFrom('slide_sections').select(['id', 'case_id', 'slide_id'])
    .where('id', '=', sectionId).where('hospital_id', '=', hospitalId).executeTakeFirst();
  if (!section) throw new AppError(404, 'section.not_found');
  if (section.slide_id !== null) throw new AppError(409, 'section.already_bound');
  return section;
}

/** A slide moved to another case (or unbound) leaves the section it was the scan of. */
export async function releaseSections(db: Kysely<Database>, slideIds: number[], keepCaseId: number | null): Promise<void> {
  let q = db.updateTable('slide_sections').set({ slide_id: null }).where('slide_id', 'in', slideIds);
  if (keepCaseId !== null) q = q.where('case_id', '<>', keepCaseId);
  await q.execute();
}
