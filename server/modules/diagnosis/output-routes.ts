import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Type } from '@sinclair/typebox';
import { CLINICAL_REPORT_VIEW } from '../../../src/core/clinicalReach.js';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { scopeOf, type DiagnosisDeps, type Req } from './deps.js';
import { diagnosticReport } from './fhir.js';
import { identifierSystems } from './fhir-systems.js';
import { hospitalCode } from './outbound-queries.js';
import { wordTemplateOf } from './queries.js';
import { reportVisible } from './report-data.js';
import { file, servedFile } from './report-file.js';
import { served } from './served.js';
import { fillTemplate, reportParameters } from './word.js';
import { binaryResponse, okResponse } from '../../http/responses.js';

const run = promisify(execFile);
const tags = ['diagnosis'];
const VIEW = { access: { permission: 'case_view' }, audit: false } as const;
// The clinical side reads the PDF too (issue 31): which reports are theirs is the row scope's (server/db/clinical-reach.ts).
const PDF_VIEW = { access: { permission: ['case_view', CLINICAL_REPORT_VIEW] }, audit: false } as const;
const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

/**
 * Report output (issue 15): the PDF (server-rendered, CJK font embedded), a PNG preview of its pages (the editor's
 * preview dialog: an image, so no plugin and no blob frame is needed), the FHIR R4 DiagnosticReport and a Word report
 * from a hospital's .docx template. A signed report is served as it was signed (issue 27, served.ts): its stored PDF,
 * byte for byte, and the data it was rendered from; `X-Report-Document` says which (`frozen`, `draft`, `unfrozen`).
 */
export function outputRoutes(app: TypedApp, deps: DiagnosisDeps): void {
  const servedTo = async (r: Req, id: number) => served(deps, await reportVisible(deps.db, id, scopeOf(r)), r.lang);

  app.get('/api/diagnosis/reports/:id/pdf', { config: PDF_VIEW, schema: { tags, params: Id, response: binaryResponse('application/pdf') } }, async (r, reply) => {
    const out = await servedTo(r, r.params.id);
    return servedFile(reply, out, await out.pdf(), 'application/pdf', `${out.doc.case.pathology_number}.pdf`, 'inline');
  });

  app.get('/api/diagnosis/reports/:id/preview', {
    config: VIEW, schema: { tags, params: Id, querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) }), response: binaryResponse('image/png') },
  }, async (r, reply) => {
    const out = await servedTo(r, r.params.id);
    return reply.header('content-type', 'image/png').header('cache-control', 'no-store').header('x-report-document', out.kind).send(await pageImage(await out.pdf(), r.query.page ?? 1));
  });

  app.get('/api/diagnosis/reports/:id/fhir', { config: VIEW, schema: { tags, params: Id, response: okResponse() } }, async (r, reply) => {
    const out = await servedTo(r, r.params.id);
    reply.header('x-report-document', out.kind);
    const systems = identifierSystems(deps.output.fhirSystemBase, await hospitalCode(deps.db, out.doc.report.hospital_id));
    return ok(diagnosticReport(out.doc, await out.pdf(), { base: deps.output.publicUrl, systems }));
  });

  app.get('/api/diagnosis/reports/:id/word', {
    config: VIEW, schema: { tags, params: Id, querystring: Type.Object({ template_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }), response: binaryResponse('application/vnd.openxmlformats-officedocument.wordprocessingml.document') },
  }, async (r, reply) => {
    // A signed report's values are those it was signed with; the template is the hospital's current one.
    const { doc } = await servedTo(r, r.params.id);
    const template = await wordTemplateOf(deps.db, r.query.template_id, doc.report.hospital_id);
    if (!template) throw new AppError(404, 'diagnosis.template_not_found');
    if (!template.word_file) throw new AppError(422, 'diagnosis.word_template_missing');
    const docx = await fillTemplate(Buffer.from(template.word_file, 'base64'), reportParameters(doc));
    return file(reply, docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', `${doc.case.pathology_number}.docx`, 'attachment');
  });
}

/** One page of the PDF as PNG, by poppler's pdftoppm (poppler-utils, installed by .ci/run). */
async function pageImage(pdf: Buffer, page: number): Promise<Buffer> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'dsms-report-'));
  try {
    await fs.writeFile(path.join(dir, 'r.pdf'), pdf);
    await run('pdftoppm', ['-png', '-r', '110', '-f', String(page), '-l', String(page), '-singlefile', path.join(dir, 'r.pdf'), path.join(dir, 'p')], { timeout: 30_000 })
      .catch((e: NodeJS.ErrnoException) => { throw e.code === 'ENOENT' ? new AppError(503, 'diagnosis.preview_unavailable') : new AppError(404, 'diagnosis.report_not_found'); });
    return await fs.readFile(path.join(dir, 'p.png'));
  } finally {
    await fs.rm(dir, { recursive: true, force: true });
  }
}
