import { isSigned, reportLanguages, servedLanguage } from '../../../src/core/reportDocument.js';
import { AppError } from '../../http/errors.js';
import type { Language } from '../../i18n/translate.js';
import type { DiagnosisDeps } from './deps.js';
import { currentDocument, documentPdf, type DocumentRow } from './document-queries.js';
import { frozenDocument, verifyUrl } from './freeze.js';
import { renderReportPdf } from './pdf.js';
import type { ReportRow } from './queries.js';
import { reportDocument, type ReportDocument } from './report-data.js';

/**
 * How the report leaves the system: `frozen` (signed: the stored document of its signing, byte for byte), `draft`
 * (not signed: rendered from live data, as a preview) or `unfrozen` (signed before signed documents were kept, so
 * there is nothing stored to serve: rendered from live data and saying so on the page; freezing it now would pass
 * off today's data as what was signed).
 */
export type ServedKind = 'frozen' | 'draft' | 'unfrozen';

export interface Served {
  kind: ServedKind;
  doc: ReportDocument;
  pdf(): Promise<Buffer>;
  /** The stored document and the PDF's SHA-256 (frozen only). */
  document: DocumentRow | null;
  sha256: string | null;
}

/** The report's fields that keep moving after signing (issue, print, send): taken live, never part of what was signed. */
const LIFECYCLE = ['sub_phase', 'release_status', 'is_draft', 'issue_at', 'print_at', 'deliver_at', 'version', 'updated_at'] as const;

/** What `report` (already in the reader's scope) is served as, in `lang` when issued in it, else its issuing language. */
export async function served(deps: DiagnosisDeps, report: ReportRow, lang?: Language): Promise<Served> {
  const document = isSigned(report) ? await currentDocument(deps.db, report.id) : undefined;
  if (document) return fromDocument(deps, report, document, lang);
  const issuing = reportLanguages(await deps.rulesFor(report.hospital_id))[0];
  const doc = await reportDocument(deps.db, report, lang ?? issuing);
  const kind: ServedKind = isSigned(report) ? 'unfrozen' : 'draft';
  return {
    kind, doc, document: null, sha256: null,
    pdf: () => renderReportPdf(doc, { storage: deps.output.storage, font: deps.output.font, verifyUrl: verifyUrl(deps.output.publicUrl, report.verify_code), unfrozen: kind === 'unfrozen' }),
  };
}

/** A stored document (current or superseded) in the reader's language or its issuing one. */
export async function fromDocument(deps: DiagnosisDeps, report: ReportRow, document: DocumentRow, lang?: Language): Promise<Served> {
  const frozen = frozenDocument(document.content, lang ?? 'zh-CN');
  const language = servedLanguage(frozen.languages, lang ?? '') as Language | undefined;
  const stored = language ? await documentPdf(deps.db, document.id, language) : undefined;
  if (!language || !stored) throw new AppError(404, 'diagnosis.document_not_found');
  const live = Object.fromEntries(LIFECYCLE.map((f) => [f, report[f]]));
  const current = !document.superseded_at;
  return {
    kind: 'frozen', document, sha256: stored.sha256,
    // Where the report stands now (issued, printed, sent) is live; what it says is what was signed.
    doc: { ...frozen, lang: language, report: { ...frozen.report, ...(current ? live : {}) } },
    pdf: async () => Buffer.from(stored.pdf),
  };
}
