import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';

/**
 * Issue 27 B, a signed report is a fixed document: signing stores what was signed (the report data and the PDF in
 * each language the hospital issues, with their SHA-256), and the PDF, the FHIR presentedForm, what is sent and the
 * verification page behind the QR code are those bytes whatever changes later: the patient's name (registration),
 * the hospital's name, the signing doctor's name. Two signings at once make one document; a recall keeps the
 * recalled signing's document (superseded, still retrievable) and signing again makes a new one; a supplementary
 * report is a document of its own naming the signed report it supplements; a report signed before documents were
 * kept is served from live data, marked as such.
 */
interface Report { id: number; version: number; sub_phase: string; verify_code: string | null }
interface Fhir { status: string; subject: { display: string }; performer: { display: string }[]; resultsInterpreter: { display: string }[]; extension?: unknown[]; presentedForm: { data: string; hash: string; size: number; language: string }[] }
interface Listed { id: number; kind: string; verify_code: string; superseded_at: string | null; supplements_document_id: number | null; content_sha256: string; pdfs: { language: string; sha256: string; size: number }[] }

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
/** Each test signs (two PDFs rendered), fetches and reads PDFs: more than vitest's default 30 s on a loaded machine. */
const PDF_WORK_MS = 120_000;

/** A minimal .docx whose one paragraph is `text` (as tests/api/diagnosis-output.test.ts builds it). */
function docx(text: string): Buffer {
  const zip = new PizZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p></w:body></w:document>`);
  return zip.generate({ type: 'nodebuffer' });
}

describe.each(databases)('a signed report is a fixed document [%s]', (kind) => {
  let h: Harness;
  let dataDir: string;
  const t: Record<string, string> = {};
  let primaryId: number;
  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'zh-CN', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };
  const act = (who: string, report: { id: number; version: number }, action: string, extra: object = {}) =>
    send(who, 'POST', `/api/diagnosis/reports/${report.id}/actions/${action}`, { version: report.version, ...extra }) as unknown as Promise<Report>;
  const get = (url: string, lang = 'zh-CN', who = 'signer') => call(h.app, 'GET', url, { token: t[who], lang });
  const pdfOf = async (id: number, lang = 'zh-CN') => {
    const res = await get(`/api/diagnosis/reports/${id}/pdf`, lang);
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
    return { bytes: res.rawPayload, kind: res.headers['x-report-document'], sha256: res.headers['x-report-sha256'] };
  };
  const fhirOf = async (id: number) => (await send('signer', 'GET', `/api/diagnosis/reports/${id}/fhir`)) as unknown as Fhir;
  const verify = async (code: string, lang = 'zh-CN') => (await call(h.app, 'GET', `/api/reports/verify/${code}`, { lang })).body;
  const documents = async (id: number) => (await send('signer', 'GET', `/api/diagnosis/reports/${id}/documents`)) as unknown as Listed[];
  const textOf = (pdf: Buffer) => {
    const file = path.join(dataDir, `r-${sha256(pdf)}.pdf`);
    fs.writeFileSync(file, pdf);
    return execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString().replace(/\s+/g, '');
  };
  /** A case's report created and brought to to_sign. */
  const toSign = async (patient: string, diagnosis: string) => {
    const caseId = await caseAtFirstDiagnosis(send, primaryId, { patient_name: patient, gender: 'female', age: 52, age_unit: 'year' });
    let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 1, diagnosis }) as unknown as Report;
    r = await act('primary', r, 'submit');
    r = await act('auditor', r, 'approve');
    return { caseId, report: r };
  };

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-frozen-'));
    h = await startApp(kind, { config: { dataDir, reportOutbound: 'outbox' } });
    for (const u of ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) t[u] = await tokenFor(h.app, u);
    primaryId = await userId(h.db, 'primary');
  });
  afterAll(async () => {
    await h?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('edits of the patient, the hospital and the signing doctor after signing change no byte of what was signed', async () => {
    const { caseId, report: toBeSigned } = await toSign('欧阳娜娜', '（胃窦）中分化腺癌');
    const report = await act('signer', toBeSigned, 'sign', { issue: 'now' });
    const before = { zh: await pdfOf(report.id, 'zh-CN'), en: await pdfOf(report.id, 'en-US'), fhir: await fhirOf(report.id) };
    const code = report.verify_code!;
    const verifiedBefore = await verify(code);

    // After signing: the registrar corrects the patient's name, the hospital is renamed, the signer's name changes.
    const c = await h.db.selectFrom('cases').select('hospital_id').where('id', '=', caseId).executeTakeFirstOrThrow();
    const signerId = await userId(h.db, 'signer');
    await send('registrar', 'PATCH', `/api/pathology/update/${caseId}`, { patient_name: '欧阳改名' });
    await send('admin', 'PATCH', `/api/config/hospitals/update/${c.hospital_id}`, { name: '更名医院', en_name: 'Renamed Hospital' });
    await send('admin', 'PATCH', `/api/system_management/users/update/${signerId}`, { realname: '改名医生' });
    // They are made: the live data says the new names.
    expect(await h.db.selectFrom('cases').select('patient_name').where('id', '=', caseId).executeTakeFirstOrThrow()).toEqual({ patient_name: '欧阳改名' });
    expect((await send('primary', 'GET', `/api/diagnosis/${caseId}`) as { report: { sign_doctor_name: string } }).report.sign_doctor_name).toBe('改名医生');

    const after = { zh: await pdfOf(report.id, 'zh-CN'), en: await pdfOf(report.id, 'en-US'), fhir: await fhirOf(report.id) };
    // The report still says what was signed, to the byte, in both languages.
    const signedText = textOf(after.zh.bytes);
    for (const signed of ['欧阳娜娜', '示范医院总院', '赵签发']) expect(signedText).toContain(signed);
    for (const later of ['欧阳改名', '更名医院', '改名医生']) expect(signedText).not.toContain(later);
    expect(textOf(after.en.bytes)).toContain('DemoGeneralHospital');
    expect(after.zh.bytes.equals(before.zh.bytes)).toBe(true);
    expect(after.en.bytes.equals(before.en.bytes)).toBe(true);
    expect(after.en.bytes.equals(after.zh.bytes)).toBe(false);
    expect(after.fhir.presentedForm).toEqual(before.fhir.presentedForm);
    expect(after.fhir.presentedForm[0]).toMatchObject({
      data: before.zh.bytes.toString('base64'), size: before.zh.bytes.length, language: 'zh-CN', hash: createHash('sha1').update(before.zh.bytes).digest('base64'),
    });
    // The rest of the FHIR resource says what was signed too.
    expect(after.fhir.subject.display).toBe('欧阳娜娜');
    expect(after.fhir.performer).toEqual([{ display: '示范医院总院' }]);
    expect(after.fhir.resultsInterpreter).toEqual(before.fhir.resultsInterpreter);
    // The verification page: the same page, genuine, with the stored PDFs' SHA-256 so a holder can check a copy.
    const verifiedAfter = await verify(code);
    expect(verifiedAfter).toBe(verifiedBefore);
    expect(verifiedAfter).toContain('data-genuine="true"');
    expect(verifiedAfter).toContain('示范医院总院');
    expect(verifiedAfter).toContain(sha256(before.zh.bytes));
    expect(verifiedAfter).toContain(sha256(before.en.bytes));
    // What each answer is: the stored document, with its hash.
    expect(after.zh.kind).toBe('frozen');
    expect(after.zh.sha256).toBe(sha256(after.zh.bytes));
    const listed = await documents(report.id);
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ kind: 'signed', verify_code: code, superseded_at: null });
    expect(listed[0].pdfs.map((p) => [p.language, p.sha256]).sort()).toEqual([['en-US', sha256(before.en.bytes)], ['zh-CN', sha256(before.zh.bytes)]]);
    // The preview is a page of the same PDF; a Word report is filled with the values that were signed.
    const preview = await get(`/api/diagnosis/reports/${report.id}/preview?page=1`);
    expect(preview.headers['x-report-document']).toBe('frozen');
    const template = await send('admin', 'POST', '/api/config/report/template/word/report/create', {
      template_name: '签发值', type: 'routine', file_name: 'signed.docx', data: docx('{patient_name}|{hospital_name}|{sign_doctor}').toString('base64'),
    }) as { id: number };
    const word = await get(`/api/diagnosis/reports/${report.id}/word?template_id=${template.id}`);
    expect(word.statusCode).toBe(200);
    expect(new PizZip(word.rawPayload).file('word/document.xml')!.asText()).toContain('欧阳娜娜|示范医院总院|赵签发');

    // Sending delivers the signed PDF, in the hospital's issuing language (the DiagnosticReport of the sent Bundle, issue 30).
    await act('signer', await act('signer', report, 'print'), 'send');
    const outbox = path.join(dataDir, 'outbox', 'fhir');
    const sent = fs.readdirSync(outbox).filter((f) => f.startsWith(`dsms-report-${report.id}-`))
      .map((f) => JSON.parse(fs.readFileSync(path.join(outbox, f), 'utf8')) as { entry: { resource: Fhir & { resourceType: string } }[] })
      .map((bundle) => bundle.entry.find((e) => e.resource.resourceType === 'DiagnosticReport')!.resource);
    expect(sent).toHaveLength(1);
    expect(sent[0].presentedForm).toEqual(before.fhir.presentedForm);
    expect(sent[0].subject.display).toBe('欧阳娜娜');
    expect(sent[0].status).toBe('final');
  }, PDF_WORK_MS);

  it('two signings at once: one is signed and stores one document, the other is refused', async () => {
    const { report } = await toSign('钱多多', '结肠腺瘤');
    const [a, b] = await Promise.all(['now', 'now'].map((issue) => call(h.app, 'POST', `/api/diagnosis/reports/${report.id}/actions/sign`, { token: t.signer, lang: 'en-US', payload: { version: report.version, issue } })));
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const refused = a.statusCode === 409 ? a : b;
    expect(refused.json().message).toMatch(/Another doctor changed this report|cannot run now/);
    const rows = await h.db.selectFrom('report_documents').select(['verify_code']).where('report_id', '=', report.id).execute();
    const stored = await h.db.selectFrom('reports').select('verify_code').where('id', '=', report.id).executeTakeFirstOrThrow();
    expect(rows).toEqual([{ verify_code: stored.verify_code }]);
    expect(await verify(stored.verify_code!)).toContain('data-genuine="true"');
  }, PDF_WORK_MS);

  it('a recalled signing keeps its document, superseded and retrievable; signing again makes a new one', async () => {
    const { report: toBeSigned } = await toSign('孙小美', '乳腺纤维腺瘤');
    let report = await act('signer', toBeSigned, 'sign', { issue: 'later' });
    const first = await pdfOf(report.id);
    const firstCode = report.verify_code!;
    expect(first.kind).toBe('frozen');
    report = await act('signer', report, 'recall');
    // Recalled: a draft again, rendered live; the old code no longer stands for a valid report.
    expect((await pdfOf(report.id)).kind).toBe('draft');
    const recalled = await verify(firstCode, 'en-US');
    expect(recalled).toContain('data-genuine="false"');
    expect(recalled).toContain('This signing was recalled');
    report = await act('signer', report, 'sign', { issue: 'later' });
    const second = await pdfOf(report.id);
    expect(report.verify_code).not.toBe(firstCode);
    expect(second.bytes.equals(first.bytes)).toBe(false);
    const listed = await documents(report.id);
    expect(listed.map((d) => [d.verify_code, d.superseded_at === null])).toEqual([[firstCode, false], [report.verify_code, true]]);
    const old = await get(`/api/diagnosis/reports/${report.id}/documents/${listed[0].id}/pdf`);
    expect(old.statusCode).toBe(200);
    expect(old.rawPayload.equals(first.bytes)).toBe(true);
    expect(await verify(report.verify_code!)).toContain('data-genuine="true"');
    // Another report's document, or none, is not found, in the reader's language.
    const foreign = await get(`/api/diagnosis/reports/${report.id}/documents/${listed[1].id + 1000}/pdf`, 'zh-CN');
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().message).toBe('该报告没有此签发文件');
  }, PDF_WORK_MS);

  it('a supplementary report is a document of its own that names the signed report it supplements', async () => {
    const { caseId, report: toBeSigned } = await toSign('周芷若', '乳腺浸润性导管癌');
    const main = await act('signer', toBeSigned, 'sign', { issue: 'now' });
    const mainPdf = await pdfOf(main.id);
    let sup = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, { report_type: 2, supplement_type: 1, diagnosis: 'ER(+90%)，PR(+60%)，HER2(1+)' }) as unknown as Report;
    expect((await pdfOf(sup.id)).kind).toBe('draft');
    sup = await act('primary', sup, 'supplement_submit');
    sup = await act('signer', sup, 'accept');
    expect(sup.sub_phase).toBe('accept');
    const supPdf = await pdfOf(sup.id);
    expect(supPdf.kind).toBe('frozen');
    const [mainDoc] = await documents(main.id);
    const [supDoc] = await documents(sup.id);
    expect(supDoc).toMatchObject({ kind: 'supplementary', supplements_document_id: mainDoc.id });
    const text = textOf(supPdf.bytes);
    const signedOn = (await h.db.selectFrom('reports').select('sign_at').where('id', '=', main.id).executeTakeFirstOrThrow()).sign_at!.slice(0, 10);
    expect(text).toContain(`本报告补充${signedOn}签发的病理报告（验证码${main.verify_code}）`);
    expect(text).toContain('原报告病理诊断：乳腺浸润性导管癌');
    expect(text).toContain('ER(+90%)，PR(+60%)，HER2(1+)');
    const fhir = await fhirOf(sup.id);
    expect(fhir.status).toBe('appended');
    expect(fhir.extension).toEqual([{ url: 'http://hl7.org/fhir/StructureDefinition/diagnosticReport-addendumOf', valueReference: { reference: `DiagnosticReport/dsms-report-${main.id}` } }]);
    expect(fhir.presentedForm[0].data).toBe(supPdf.bytes.toString('base64'));
    expect(await verify(sup.verify_code!)).toContain('data-genuine="true"');
    // The supplemented report itself is untouched.
    expect((await pdfOf(main.id)).bytes.equals(mainPdf.bytes)).toBe(true);
  }, PDF_WORK_MS);

  it('a report signed before documents were kept is served from live data and says so', async () => {
    const { report: toBeSigned } = await toSign('吴用', '慢性阑尾炎');
    const report = await act('signer', toBeSigned, 'sign', { issue: 'now' });
    // As an older release left it: the report row signed and sealed the same way, no document.
    await h.db.deleteFrom('report_documents').where('report_id', '=', report.id).execute();
    const live = await pdfOf(report.id);
    expect(live.kind).toBe('unfrozen');
    expect(live.sha256).toBeUndefined();
    expect(textOf(live.bytes)).toContain('本报告签发于系统保存签发文件之前，此文件按当前数据生成，可能与签发时不同');
    const page = await verify(report.verify_code!, 'en-US');
    expect(page).toContain('data-genuine="true"');
    expect(page).toContain('data-unfrozen="true"');
    expect(await documents(report.id)).toEqual([]);
  }, PDF_WORK_MS);
});
