import { reportLanguages } from '../../../src/core/reportDocument.js';
import type { Language } from '../../i18n/translate.js';
import type { DiagnosisDeps } from './deps.js';
import type { Frozen } from './document-queries.js';
import { renderReportPdf } from './pdf.js';
import type { ReportRow } from './queries.js';
import { reportDocument, type ReportDocument } from './report-data.js';
import { sealOf, sha256 } from './seal.js';

/** What a signed document holds besides its PDFs: the data they were rendered from and the languages issued, issuing first. */
export type FrozenContent = Omit<ReportDocument, 'lang'> & { languages: Language[] };

/** What freezing a signing reads: the report's data, the hospital's rules, the seal keys, the PDF's storage and font. */
export type FreezeDeps = Pick<DiagnosisDeps, 'db' | 'rulesFor' | 'verifyKeys' | 'output'>;

export const verifyUrl = (publicUrl: string, code: string | null) => (code ? `${publicUrl.replace(/\/$/, '')}/api/reports/verify/${code}` : null);

/**
 * Renders a signing before it is written: `signed` is the report as the signing will leave it (its stamp applied).
 * The report data is read once, the PDFs are rendered from exactly that data in each language the hospital issues,
 * and content and PDFs are hashed and the content sealed. Done outside the transaction (rendering takes a while);
 * the write that stores it refuses if the report changed meanwhile, so nothing stale is ever stored.
 */
export async function freezeSigning(deps: FreezeDeps, signed: ReportRow, kind: Frozen['kind']): Promise<Frozen> {
  const languages = reportLanguages(await deps.rulesFor(signed.hospital_id));
  const { lang: _lang, ...data } = await reportDocument(deps.db, signed, languages[0]);
  // The seal is over the content, so the content cannot hold it.
  const content: FrozenContent = { ...data, report: { ...data.report, verify_hash: null }, languages };
  const text = JSON.stringify(content);
  const contentSha256 = sha256(text);
  const pdfs: Frozen['pdfs'] = [];
  for (const language of languages) {
    const pdf = await renderReportPdf({ ...content, lang: language }, { storage: deps.output.storage, font: deps.output.font, verifyUrl: verifyUrl(deps.output.publicUrl, signed.verify_code) });
    pdfs.push({ language, pdf, sha256: sha256(pdf) });
  }
  return { kind, content: text, contentSha256, seal: await sealOf(deps.verifyKeys, contentSha256), supplementsDocumentId: content.supplements?.document_id ?? null, pdfs };
}

/** A stored document's content, as the renderers take it, in `lang`. */
export function frozenDocument(content: string, lang: Language): ReportDocument & { languages: Language[] } {
  return { ...(JSON.parse(content) as FrozenContent), lang };
}
