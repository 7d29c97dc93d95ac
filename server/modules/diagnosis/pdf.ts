import fs from 'node:fs';
import type { Storage } from '../../storage/storage.js';
import type { ReportDocument } from './report-data.js';
import { loadReportImages } from './report-images.js';
import { reportFieldWords } from './report-fields.js';
import { reportPhrase, reportWord, type ReportWord } from './report-words.js';

/**
 * Debian's Noto CJK (package fonts-noto-cjk, installed by .ci/run): pdfkit embeds the subset of glyphs the report
 * uses, so Chinese text is real text in the PDF (copyable, searchable, pdftotext reads it). The configuration's
 * `reportFont` (REPORT_FONT, REPORT_FONT_FACE: server/config.ts) overrides.
 */
const FONT_CANDIDATES = [
  '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc',
  '/usr/share/fonts/opentype/noto/NotoSerifCJK-Regular.ttc',
];
/** The face inside the .ttc collection: simplified Chinese. */
const FONT_FACE = 'NotoSansCJKsc-Regular';

export interface ReportFontConfig { file?: string; face?: string }

export function reportFont(config: ReportFontConfig = {}): string {
  const found = [config.file, ...FONT_CANDIDATES].find((f): f is string => !!f && fs.existsSync(f));
  if (!found) throw new Error('no CJK font for reports: install fonts-noto-cjk or set REPORT_FONT');
  return found;
}

/**
 * Renders the report as an A4 PDF: header, patient block, the report's texts, images, doctors, the verification QR
 * code; a supplementary report names the signed report it supplements and that report's diagnosis. `unfrozen`: a
 * report signed before signed documents were kept, rendered from live data, says so under its title.
 */
export async function renderReportPdf(doc: ReportDocument, opts: { storage: Storage; verifyUrl: string | null; unfrozen?: boolean; font?: ReportFontConfig }): Promise<Buffer> {
  // Large packages only reports need: loaded by the first report, not at every process's start.
  const [{ default: PDFDocument }, { default: QRCode }] = await Promise.all([import('pdfkit'), import('qrcode')]);
  // Read before drawing starts: the drawing below is synchronous.
  const pictures = await loadReportImages(opts.storage, doc.images);
  const w = (k: ReportWord) => reportWord(doc.lang, k);
  const pdf = new PDFDocument({ size: 'A4', margin: 48, info: { Title: `${w('title')} ${doc.case.pathology_number}`, Author: doc.hospital.name } });
  const font = reportFont(opts.font);
  pdf.registerFont('cjk', font, font.endsWith('.ttc') ? opts.font?.face ?? FONT_FACE : undefined);
  pdf.font('cjk');
  const chunks: Buffer[] = [];
  pdf.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => { pdf.on('end', () => resolve(Buffer.concat(chunks))); pdf.on('error', reject); });

  const width = pdf.page.width - 96;
  const words = reportFieldWords(doc);
  pdf.fontSize(18).text(words.hospitalName, { align: 'center' });
  pdf.fontSize(15).text(doc.report.report_type === 2 ? `${w('title')}（${w('supplementary')}）` : w('title'), { align: 'center' });
  if (opts.verifyUrl) {
    const qr = await QRCode.toBuffer(opts.verifyUrl, { type: 'png', margin: 1, width: 160 });
    pdf.image(qr, pdf.page.width - 48 - 64, 40, { width: 64 });
  }
  // Kept clear of the QR code in the top right corner.
  if (opts.unfrozen) pdf.moveDown(0.2).fontSize(8).fillColor('#c50f1f').text(w('unfrozen'), 48 + 72, pdf.y, { width: width - 144, align: 'center' }).fillColor('black');
  pdf.moveDown(0.8);

  const c = doc.case;
  const rows: [ReportWord, string][][] = [
    [['pathology_number', c.pathology_number], ['patient_name', c.patient_name ?? ''], ['gender', words.gender]],
    [['age', words.age], ['department', c.inspection_department ?? ''], ['inspection_doctor', c.inspection_doctor ?? '']],
    [['specimen', c.specimen_name ?? '']],
  ];
  pdf.fontSize(10);
  for (const row of rows) {
    const y = pdf.y;
    const col = width / row.length;
    row.forEach(([k, v], i) => pdf.text(`${w(k)}：${v}`, 48 + i * col, y, { width: col - 6, height: 14, ellipsis: true }));
    pdf.x = 48;
    pdf.y = y + 16;
  }
  if (c.clinical_diagnosis) pdf.text(`${w('clinical_diagnosis')}：${c.clinical_diagnosis}`, 48, pdf.y, { width });
  rule(pdf);
  if (doc.supplements) {
    const s = doc.supplements;
    pdf.fontSize(10).text(reportPhrase(doc.lang, 'supplements', { date: s.sign_at?.slice(0, 10) ?? '', code: s.verify_code ?? '' }), 48, pdf.y, { width });
    if (s.diagnosis?.trim()) pdf.moveDown(0.2).text(`${w('supplemented_diagnosis')}：${s.diagnosis.trim()}`, 48, pdf.y, { width });
    rule(pdf);
  }

  const section = (k: ReportWord, text: string | null, size = 11) => {
    if (!text?.trim()) return;
    pdf.fontSize(12).text(w(k), 48, pdf.y, { width });
    pdf.moveDown(0.2).fontSize(size).text(text.trim(), 60, pdf.y, { width: width - 12, lineGap: 3 });
    pdf.moveDown(0.6);
  };
  section('gross_description', doc.report.gross_description);
  if (pictures.length) images(pdf, pictures, width);
  section('microscopic', doc.report.microscopic);
  section('diagnosis', doc.report.diagnosis, 13);
  section('advice', doc.report.advice);
  section('postscript', doc.report.postscript);
  rule(pdf);

  pdf.fontSize(10);
  const signLine = [
    `${w('first_doctor')}：${doc.doctors.first}`,
    ...(doc.doctors.audit ? [`${w('audit_doctor')}：${doc.doctors.audit}`] : []),
    `${w('sign_doctor')}：${doc.doctors.sign}`,
    `${w('sign_at')}：${words.signAt}`,
  ].join('    ');
  pdf.text(signLine, 48, pdf.y, { width });
  if (opts.verifyUrl) pdf.moveDown(0.3).fontSize(8).fillColor('#666').text(w('verify'), { width });
  pdf.end();
  return done;
}

function rule(pdf: PDFKit.PDFDocument) {
  pdf.moveDown(0.3);
  pdf.moveTo(48, pdf.y).lineTo(pdf.page.width - 48, pdf.y).lineWidth(0.5).strokeColor('#888').stroke();
  pdf.moveDown(0.5);
}

/** Report images two to a row; bytes pdfkit cannot read as an image are left out rather than failing the report. */
function images(pdf: PDFKit.PDFDocument, pictures: Buffer[], width: number) {
  const size = (width - 12) / 2;
  let i = 0;
  for (const data of pictures) {
    if (i % 2 === 0 && pdf.y + size * 0.75 > pdf.page.height - 96) pdf.addPage();
    const y = pdf.y;
    try {
      pdf.image(data, 48 + (i % 2) * (size + 12), y, { fit: [size, size * 0.75] });
    } catch {
      continue;
    }
    if (i % 2 === 1) pdf.y = y + size * 0.75 + 8;
    else pdf.y = y;
    i++;
  }
  if (i % 2 === 1) pdf.y += size * 0.75 + 8;
  pdf.x = 48;
}
