import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { reportWord, type ReportWord } from '../../server/modules/diagnosis/report-words.js';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';

/**
 * Issue 30: a Word report said `female` and `47year` where the PDF of the same report says 女 and 47岁. A template
 * laid out like the PDF's patient block (the PDF's own labels, then the parameters) is filled, and every line of
 * the .docx's text must be found in the PDF's text (pdftotext), in zh-CN and in en-US.
 */
const FIELDS: [ReportWord, string][] = [
  ['pathology_number', '{pathology_number}'], ['patient_name', '{patient_name}'], ['gender', '{gender}'], ['age', '{age}{age_unit}'],
  ['department', '{department}'], ['specimen', '{specimen_name}'], ['sign_doctor', '{sign_doctor}'], ['sign_at', '{sign_at}'],
];

/** A .docx with one paragraph per line (as tests/api/diagnosis-output.test.ts builds its template). */
function docx(lines: string[]): Buffer {
  const zip = new PizZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  const paragraphs = lines.map((l) => `<w:p><w:r><w:t xml:space="preserve">${l}</w:t></w:r></w:p>`).join('');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${paragraphs}</w:body></w:document>`);
  return zip.generate({ type: 'nodebuffer' });
}

/** The text of each paragraph of a .docx. */
function docxLines(file: Buffer): string[] {
  const xml = new PizZip(file).file('word/document.xml')!.asText();
  return [...xml.matchAll(/<w:p\b[^>]*>([\s\S]*?)<\/w:p>/g)].map((p) => [...p[1].matchAll(/<w:t\b[^>]*>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(''));
}

const squeeze = (s: string) => s.replace(/\s+/g, '');

describe.each(databases)('Word report words [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let reportId: number;
  let dir: string;
  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'zh-CN', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };

  beforeAll(async () => {
    h = await startApp(kind);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-word-'));
    for (const u of ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) t[u] = await tokenFor(h.app, u);
    const caseId = await caseAtFirstDiagnosis(send, await userId(h.db, 'primary'), {
      patient_name: '欧阳娜娜', gender: 'female', age: 47, age_unit: 'year', inspection_department: '消化内科',
    });
    let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis: '（胃窦）慢性浅表性胃炎。' }) as { id: number; version: number };
    for (const [who, action] of [['primary', 'submit'], ['auditor', 'approve'], ['signer', 'sign']]) {
      r = await send(who, 'POST', `/api/diagnosis/reports/${r.id}/actions/${action}`, { version: r.version }) as typeof r;
    }
    reportId = r.id;
  });
  afterAll(async () => {
    await h?.close();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  it.each(['zh-CN', 'en-US'] as const)('fills a template with the words the PDF prints (%s)', async (lang) => {
    const template = docx(FIELDS.map(([label, value]) => `${reportWord(lang, label)}：${value}`));
    const created = await send('admin', 'POST', '/api/config/report/template/word/report/create', {
      template_name: `PDF layout ${lang}`, type: 'routine', file_name: 'pdf-layout.docx', data: template.toString('base64'),
    }) as { id: number };
    const word = await call(h.app, 'GET', `/api/diagnosis/reports/${reportId}/word?template_id=${created.id}`, { token: t.signer, lang });
    expect(word.statusCode, word.body).toBe(200);
    const lines = docxLines(word.rawPayload);
    expect(lines).toHaveLength(FIELDS.length);

    const pdf = await call(h.app, 'GET', `/api/diagnosis/reports/${reportId}/pdf`, { token: t.signer, lang });
    expect(pdf.statusCode).toBe(200);
    const file = path.join(dir, `report-${lang}.pdf`);
    fs.writeFileSync(file, pdf.rawPayload);
    const text = squeeze(execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString());
    for (const line of lines) expect(text, `the PDF (${lang}) has the Word line "${line}"`).toContain(squeeze(line));

    // The words themselves, not codes.
    const gender = lines[2], age = lines[3];
    expect(gender).toBe(`${reportWord(lang, 'gender')}：${reportWord(lang, 'female')}`);
    expect(age).toBe(`${reportWord(lang, 'age')}：47${reportWord(lang, 'year')}`);
    expect(lines.join('\n')).not.toMatch(/female|47year/);
  });
});
