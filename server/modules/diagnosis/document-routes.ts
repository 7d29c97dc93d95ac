import { Type } from '@sinclair/typebox';
import { ok } from '../../http/envelope.js';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import { scopeOf, type DiagnosisDeps } from './deps.js';
import { documentOfReport, documentsOf } from './document-queries.js';
import { reportVisible } from './report-data.js';
import { servedFile } from './report-file.js';
import { fromDocument } from './served.js';
import { binaryResponse, okResponse } from '../../http/responses.js';

const tags = ['diagnosis'];
const VIEW = { access: { permission: 'case_view' }, audit: false } as const;
const Int = Type.Integer({ minimum: 1, maximum: 2_147_483_647 });

/**
 * A report's signed documents (issue 27): every signing, the current one and those a recall superseded, each with
 * the SHA-256 of its content and of its PDF in each language; and any one of them as the PDF it was signed as.
 */
export function documentRoutes(app: TypedApp, deps: DiagnosisDeps): void {
  app.get('/api/diagnosis/reports/:id/documents', { config: VIEW, schema: { tags, params: Type.Object({ id: Int }), response: okResponse() } }, async (r) => {
    const report = await reportVisible(deps.db, r.params.id, scopeOf(r));
    return ok(await documentsOf(deps.db, report.id));
  });

  app.get('/api/diagnosis/reports/:id/documents/:documentId/pdf', { config: VIEW, schema: { tags, params: Type.Object({ id: Int, documentId: Int }), response: binaryResponse('application/pdf') } }, async (r, reply) => {
    const report = await reportVisible(deps.db, r.params.id, scopeOf(r));
    const document = await documentOfReport(deps.db, report.id, r.params.documentId);
    if (!document) throw new AppError(404, 'diagnosis.document_not_found');
    const out = await fromDocument(deps, report, document, r.lang);
    return servedFile(reply, out, await out.pdf(), 'application/pdf', `${out.doc.case.pathology_number}.pdf`, 'inline');
  });
}
