import { Type } from '@sinclair/typebox';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { buildTree, parentProblem } from '../../../src/core/templateTree.js';
import { Id, PhraseBody, TemplateBody } from './bodies.js';
import type { DiagnosisDeps } from './deps.js';
import { okResponse } from '../../http/responses.js';

const tags = ['diagnosis'];
const READ = { access: { permission: 'case_diagnosis' }, audit: false } as const;
const WRITE = { access: { permission: 'case_diagnosis' } } as const;

/** Diagnostic templates (a tree per hospital; an upper template cannot be itself nor below itself) and phrases. */
export function templateRoutes(app: TypedApp, deps: DiagnosisDeps): void {
  const db = deps.db;
  const all = (hospitalId: number) => db.selectFrom('diagnosis_templates').selectAll().where('hospital_id', '=', hospitalId).orderBy('rank').orderBy('id').execute();
  const checkParent = async (hospitalId: number, id: number | null, parentId: number | null | undefined) => {
    if (parentId === undefined) return;
    const problem = parentProblem(await all(hospitalId), id, parentId);
    if (problem === 'self' || problem === 'descendant') throw new AppError(422, 'diagnosis.template_self_parent');
    if (problem === 'unknown') throw new AppError(422, 'diagnosis.template_not_found');
  };

  app.get('/api/diagnosis/templates', { config: READ, schema: { tags, response: okResponse() } }, async (r) => ok(buildTree(await all(workingHospital(r)))));
  app.post('/api/diagnosis/templates', { config: WRITE, schema: { tags, body: TemplateBody, response: okResponse() } }, async (r) => {
    const hospitalId = workingHospital(r);
    await checkParent(hospitalId, null, r.body.parent_id);
    const now = new Date().toISOString();
    const row = await db.insertInto('diagnosis_templates').values({ hospital_id: hospitalId, ...r.body, parent_id: r.body.parent_id ?? null, created_at: now, updated_at: now })
      .returningAll().executeTakeFirstOrThrow();
    return ok(row);
  });
  app.patch('/api/diagnosis/templates/:id', { config: WRITE, schema: { tags, params: Id, body: Type.Partial(TemplateBody, { additionalProperties: false }), response: okResponse() } }, async (r) => {
    const hospitalId = workingHospital(r);
    await checkParent(hospitalId, r.params.id, r.body.parent_id);
    const res = await db.updateTable('diagnosis_templates').set({ ...r.body, updated_at: new Date().toISOString() }).where('id', '=', r.params.id).where('hospital_id', '=', hospitalId).executeTakeFirst();
    if (!Number(res.numUpdatedRows)) throw new AppError(404, 'diagnosis.template_not_found');
    return ok({ id: r.params.id });
  });
  app.delete('/api/diagnosis/templates/:id', { config: WRITE, schema: { tags, params: Id, response: okResponse() } }, async (r) => {
    const hospitalId = workingHospital(r);
    await db.transaction().execute(async (trx) => {
      // Children move up to the deleted template's parent rather than vanishing.
      const row = await trx.selectFrom('diagnosis_templates').select('parent_id').where('id', '=', r.params.id).where('hospital_id', '=', hospitalId).executeTakeFirst();
      if (!row) throw new AppError(404, 'diagnosis.template_not_found');
      await trx.updateTable('diagnosis_templates').set({ parent_id: row.parent_id }).where('parent_id', '=', r.params.id).execute();
      await trx.deleteFrom('diagnosis_templates').where('id', '=', r.params.id).execute();
    });
    return ok({ id: r.params.id });
  });

  app.get('/api/diagnosis/phrases', { config: READ, schema: { tags, response: okResponse() } }, async (r) =>
    ok(await db.selectFrom('diagnosis_phrases').selectAll().where('hospital_id', '=', workingHospital(r)).orderBy('rank').orderBy('id').execute()));
  app.post('/api/diagnosis/phrases', { config: WRITE, schema: { tags, body: PhraseBody, response: okResponse() } }, async (r) => {
    const now = new Date().toISOString();
    return ok(await db.insertInto('diagnosis_phrases').values({ hospital_id: workingHospital(r), ...r.body, category: r.body.category ?? null, created_at: now, updated_at: now }).returningAll().executeTakeFirstOrThrow());
  });
  app.delete('/api/diagnosis/phrases/:id', { config: WRITE, schema: { tags, params: Id, response: okResponse() } }, async (r) => {
    const res = await db.deleteFrom('diagnosis_phrases').where('id', '=', r.params.id).where('hospital_id', '=', workingHospital(r)).executeTakeFirst();
    if (!Number(res.numDeletedRows)) throw new AppError(404, 'error.not_found');
    return ok({ id: r.params.id });
  });
}
