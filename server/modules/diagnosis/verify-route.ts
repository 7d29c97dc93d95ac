import { Type } from '@sinclair/typebox';
import { AppError } from '../../http/errors.js';
import type { TypedApp } from '../../http/types.js';
import type { Language } from '../../i18n/translate.js';
import type { DiagnosisDeps } from './deps.js';
import { documentByCode, documentPdfs, type DocumentRow } from './document-queries.js';
import { frozenDocument } from './freeze.js';
import type { ReportRow } from './queries.js';
import { reportDocument, type ReportDocument } from './report-data.js';
import { reportPhrase, reportWord } from './report-words.js';
import { contentHash, sealHolds, sealMatches, sha256 } from './seal.js';
import { binaryResponse } from '../../http/responses.js';

const tags = ['diagnosis'];

interface Verdict { genuine: boolean; word: 'genuine' | 'altered' | 'superseded'; doc: ReportDocument; pdfs: { language: string; sha256: string }[]; unfrozen: boolean }

/**
 * Public: what the report's QR code opens (issue 15), with only the fields the hospital's workflow rule
 * `verify-fields` names; no other patient detail. A signed document (issue 27) is genuine when its stored content
 * and PDFs still hash to what was sealed at signing, its signing was not recalled, and the report still says what it
 * signed; the fields shown are the signed ones, and the PDFs' SHA-256 let a holder check their copy. A report signed
 * before documents were kept is checked by its seal alone and shown from current data, marked.
 */
export function verifyRoute(app: TypedApp, deps: DiagnosisDeps): void {
  app.get('/api/reports/verify/:code', {
    config: { access: 'public', audit: false },
    schema: { tags, params: Type.Object({ code: Type.String({ minLength: 8, maxLength: 64, pattern: '^[a-f0-9]+$' }) }), response: binaryResponse('text/html') },
  }, async (r, reply) => {
    const document = await documentByCode(deps.systemDb, r.params.code);
    const report = document
      ? await deps.systemDb.selectFrom('reports').selectAll().where('id', '=', document.report_id).executeTakeFirst()
      : await deps.systemDb.selectFrom('reports').selectAll().where('verify_code', '=', r.params.code).executeTakeFirst();
    if (!report) throw new AppError(404, 'diagnosis.verify_not_found');
    const v = document ? await ofDocument(deps, document, report, r.lang) : await ofLiveReport(deps, report, r.lang);
    const resolve = await deps.rulesFor(report.hospital_id);
    const fieldsRule = resolve('workflow.verify-fields');
    const shown = Array.isArray(fieldsRule) ? fieldsRule.filter((f): f is string => typeof f === 'string') : [];
    const w = (k: Parameters<typeof reportWord>[1]) => reportWord(r.lang, k);
    const { doc } = v;
    const values: Record<string, [string, string]> = {
      pathology_number: [w('pathology_number'), doc.case.pathology_number], hospital: [w('hospital'), doc.hospital.name],
      sign_at: [w('sign_at'), doc.report.sign_at?.slice(0, 10) ?? ''], diagnosis: [w('diagnosis'), doc.report.diagnosis ?? ''],
      patient_name: [w('patient_name'), doc.case.patient_name ?? ''], sign_doctor: [w('sign_doctor'), doc.doctors.sign],
    };
    const rows = [
      ...shown.filter((f) => values[f]).map((f) => values[f]),
      ...v.pdfs.map((p): [string, string] => [reportPhrase(r.lang, 'document_sha256', { language: p.language }), p.sha256]),
    ].map(([k, value]) => `<tr><th>${esc(k)}</th><td>${esc(value)}</td></tr>`).join('');
    const note = v.unfrozen ? `<p class="note" data-unfrozen="true">${esc(w('unfrozen'))}</p>` : '';
    const html = `<!doctype html><html lang="${r.lang}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${esc(w('verify_title'))}</title>`
      + `<style>body{font-family:sans-serif;max-width:40rem;margin:2rem auto;padding:0 1rem}th{text-align:left;padding-right:1rem}td{word-break:break-all}.ok{color:#107c10}.bad{color:#c50f1f}.note{color:#666}</style></head>`
      + `<body><h1>${esc(w('verify_title'))}</h1><p class="${v.genuine ? 'ok' : 'bad'}" data-genuine="${v.genuine}">${esc(w(v.word))}</p>${note}<table>${rows}</table></body></html>`;
    return reply.header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'")
      .send(html);
  });
}

/** A signed document: intact as sealed, still the report's current signing, and the report unchanged since. */
async function ofDocument(deps: DiagnosisDeps, document: DocumentRow, report: ReportRow, lang: Language): Promise<Verdict> {
  const doc = frozenDocument(document.content, lang);
  const pdfs = await documentPdfs(deps.systemDb, document.id);
  const intact = sha256(document.content) === document.content_sha256
    && await sealMatches(deps.verifyKeys, document.seal, document.content_sha256)
    && pdfs.every((p) => sha256(Buffer.from(p.pdf)) === p.sha256);
  const current = !document.superseded_at && report.verify_code === document.verify_code;
  const unchanged = contentHash(report) === contentHash(doc.report) && await sealHolds(deps.verifyKeys, report);
  const genuine = intact && current && unchanged;
  const order = (l: string) => doc.languages.indexOf(l as Language);
  return {
    genuine, word: !current ? 'superseded' : genuine ? 'genuine' : 'altered', doc, unfrozen: false,
    pdfs: [...pdfs].sort((a, b) => order(a.language) - order(b.language)).map((p) => ({ language: p.language, sha256: p.sha256 })),
  };
}

/** Signed before documents were kept: the seal over what the report says, the rest as it is now. */
async function ofLiveReport(deps: DiagnosisDeps, report: ReportRow, lang: Language): Promise<Verdict> {
  const doc = await reportDocument(deps.systemDb, report, lang);
  const genuine = await sealHolds(deps.verifyKeys, report);
  return { genuine, word: genuine ? 'genuine' : 'altered', doc, pdfs: [], unfrozen: true };
}

const esc = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
