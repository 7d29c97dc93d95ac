import { Type } from '@sinclair/typebox';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import { workingHospital } from '../../http/hospital-scope.js';
import type { TypedApp } from '../../http/types.js';
import { buildTree, parentProblem } from '../../../src/core/templateTree.js';
import { Id, PhraseBody, TemplateBody } from './bodies.js';
import type { DiagnosisDeps } from './deps.js';
import { createPhrase, createTemplate, deletePhrase, deleteTemplate, phrasesOf, templatesOf, updateTemplate } from './template-queries.js';
import { okResponse } from '../../http/responses.js';

const tags = ['diagnosis'];
const READ = { access: { permission: 'case_diagnosis' }, audit: false } as const;
const WRITE = { access: { permission: 'case_diagnosis' } } as const;

/** Diagnostic templates (a tree per hospital; an upper template cannot be itself nor below itself) and phrases. */
export function templateRoutes(app: TypedApp, deps: DiagnosisDeps): void {
  const db = deps.db;
  const all = (hospitalId: number) => templatesOf(db, hospitalId);
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
    return ok(await createTemplate(db, hospitalId, r.body, new Date().toISOString()));
  });
  app.patch('/api/diagnosis/templates/:id', { config: WRITE, schema: { tags, params: Id, body: Type.Partial(TemplateBody, { additionalProperties: false }), response: okResponse() } }, async (r) => {
    const hospitalId = workingHospital(r);
    await checkParent(hospitalId, r.params.id, r.body.parent_id);
    if (!(await updateTemplate(db, hospitalId, r.params.id, r.body, new Date().toISOString()))) throw new AppError(404, 'diagnosis.template_not_found');
    return ok({ id: r.params.id });
  });
  app.delete('/api/diagnosis/templates/:id', { config: WRITE, schema: { tags, params: Id, response: okResponse() } }, async (r) => {
    // Children move up to the deleted template's parent rather than vanishing.
    if (!(await deleteTemplate(db, workingHospital(r), r.params.id))) throw new AppError(404, 'diagnosis.template_not_found');
    return ok({ id: r.params.id });
  });

  app.get('/api/diagnosis/phrases', { config: READ, schema: { tags, response: okResponse() } }, async (r) =>
    ok(await phrasesOf(db, workingHospital(r))));
  app.post('/api/diagnosis/phrases', { config: WRITE, schema: { tags, body: PhraseBody, response: okResponse() } }, async (r) => {
    return ok(await createPhrase(db, workingHospital(r), r.body, new Date().toISOString()));
  });
  app.delete('/api/diagnosis/phrases/:id', { config: WRITE, schema: { tags, params: Id, response: okResponse() } }, async (r) => {
    if (!(await deletePhrase(db, workingHospital(r), r.params.id))) throw new AppError(404, 'error.not_found');
    return ok({ id: r.params.id });
  });
}
