import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Type } from '@sinclair/typebox';
import type { FastifyReply } from 'fastify';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { scopeOf, type DiagnosisDeps, type Req } from './deps.js';
import { diagnosticReport } from './fhir.js';
import { renderReportPdf } from './pdf.js';
import { reportDocument } from './report-data.js';
import { reportWord } from './report-words.js';
import { sealHolds } from './workflow.js';
import { fillTemplate, reportParameters } from './word.js';

const run = promisify(execFile);
const tags = ['diagnosis'];
const VIEW = { access: { permission: 'case_view' }, audit: false } as const;
const Id = Type.Object({ id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) });

export interface OutputOptions { dataDir: string; publicUrl: string }

/**
 * Report output (issue 15): the PDF (server-rendered, CJK font embedded), a PNG preview of its pages (the editor's
 * preview dialog: an image, so no plugin and no blob frame is needed), the FHIR R4 DiagnosticReport, a Word report
 * from a hospital's .docx template, and the public verification page behind the report's QR code.
 */
export function outputRoutes(app: TypedApp, deps: DiagnosisDeps, opts: OutputOptions): void {
  const verifyUrl = (code: string | null) => (code ? `${opts.publicUrl.replace(/\/$/, '')}/api/reports/verify/${code}` : null);
  const pdfOf = async (r: Req, id: number) => {
    const doc = await reportDocument(deps.db, id, scopeOf(r), r.lang, undefined);
    return { doc, pdf: await renderReportPdf(doc, { dataDir: opts.dataDir, verifyUrl: verifyUrl(doc.report.verify_code) }) };
  };

  app.get('/api/diagnosis/reports/:id/pdf', { config: VIEW, schema: { tags, params: Id } }, async (r, reply) => {
    const { doc, pdf } = await pdfOf(r, r.params.id);
    return file(reply, pdf, 'application/pdf', `${doc.case.pathology_number}.pdf`, 'inline');
  });

  app.get('/api/diagnosis/reports/:id/preview', {
    config: VIEW, schema: { tags, params: Id, querystring: Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 50 })) }) },
  }, async (r, reply) => {
    const { pdf } = await pdfOf(r, r.params.id);
    return reply.header('content-type', 'image/png').header('cache-control', 'no-store').send(await pageImage(pdf, r.query.page ?? 1));
  });

  app.get('/api/diagnosis/reports/:id/fhir', { config: VIEW, schema: { tags, params: Id } }, async (r) => {
    const { doc, pdf } = await pdfOf(r, r.params.id);
    return ok(diagnosticReport(doc, pdf, opts.publicUrl));
  });

  app.get('/api/diagnosis/reports/:id/word', {
    config: VIEW, schema: { tags, params: Id, querystring: Type.Object({ template_id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }) }) },
  }, async (r, reply) => {
    const doc = await reportDocument(deps.db, r.params.id, scopeOf(r), r.lang, undefined);
    const template = await deps.db.selectFrom('report_templates').select(['word_file']).where('id', '=', r.query.template_id)
      .where('hospital_id', '=', doc.report.hospital_id).executeTakeFirst();
    if (!template) throw new AppError(404, 'diagnosis.template_not_found');
    if (!template.word_file) throw new AppError(422, 'diagnosis.word_template_missing');
    const docx = await fillTemplate(Buffer.from(template.word_file, 'base64'), reportParameters(doc));
    return file(reply, docx, 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', `${doc.case.pathology_number}.docx`, 'attachment');
  });

  // Public: what the QR code opens. Genuine and unchanged (the seal), with only the fields the hospital's
  // workflow rule `verify-fields` names; no other patient detail.
  app.get('/api/reports/verify/:code', {
    config: { access: 'public', audit: false },
    schema: { tags, params: Type.Object({ code: Type.String({ minLength: 8, maxLength: 64, pattern: '^[a-f0-9]+$' }) }) },
  }, async (r, reply) => {
    // Signed out: the code is the grant, so the unscoped handle reads the report (its hospital named below).
    const report = await deps.systemDb.selectFrom('reports').selectAll().where('verify_code', '=', r.params.code).executeTakeFirst();
    if (!report) throw new AppError(404, 'diagnosis.verify_not_found');
    const doc = await reportDocument(deps.systemDb, report.id, [report.hospital_id], r.lang, report);
    const genuine = await sealHolds(deps, report);
    const resolve = await deps.rulesFor(report.hospital_id);
    const fieldsRule = resolve('workflow.verify-fields');
    const shown = Array.isArray(fieldsRule) ? fieldsRule.filter((f): f is string => typeof f === 'string') : [];
    const w = (k: Parameters<typeof reportWord>[1]) => reportWord(r.lang, k);
    const values: Record<string, [string, string]> = {
      pathology_number: [w('pathology_number'), doc.case.pathology_number], hospital: [w('hospital'), doc.hospital.name],
      sign_at: [w('sign_at'), report.sign_at?.slice(0, 10) ?? ''], diagnosis: [w('diagnosis'), report.diagnosis ?? ''],
      patient_name: [w('patient_name'), doc.case.patient_name ?? ''], sign_doctor: [w('sign_doctor'), doc.doctors.sign],
    };
    const rows = shown.filter((f) => values[f]).map((f) => `<tr><th>${esc(values[f][0])}</th><td>${esc(values[f][1])}</td></tr>`).join('');
    const verdict = genuine ? w('genuine') : w('altered');
    const html = `<!doctype html><html lang="${r.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(w('verify_title'))}</title>`
      + `<style>body{font-family:sans-serif;max-width:36rem;margin:2rem auto;padding:0 1rem}th{text-align:left;padding-right:1rem}.ok{color:#107c10}.bad{color:#c50f1f}</style></head>`
      + `<body><h1>${esc(w('verify_title'))}</h1><p class="${genuine ? 'ok' : 'bad'}" data-genuine="${genuine}">${esc(verdict)}</p><table>${rows}</table></body></html>`;
    return reply.header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
      .send(html);
  });
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function file(reply: FastifyReply, body: Buffer, type: string, name: string, disposition: 'inline' | 'attachment') {
  return reply.header('content-type', type).header('cache-control', 'no-store')
    .header('content-disposition', `${disposition}; filename="report.${name.split('.').pop()}"; filename*=UTF-8''${encodeURIComponent(name)}`).send(body);
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
