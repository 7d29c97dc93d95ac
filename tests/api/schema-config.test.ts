import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 13: a hospital's whole configuration (page overrides, rule sets, contract extensions) exported as one
 * file and imported into another hospital gives the same effective pages; a tampered or invalid file is refused
 * whole, with its reasons, and changes nothing.
 */
describe.each(databases)('hospital configuration export / import [%s]', (kind) => {
  let h: Harness;
  let main: string;
  let branch: string;
  let registrar: string;
  const ALIASES = ['CaseList', 'SystemUser'];

  beforeAll(async () => {
    h = await startApp(kind);
    const hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).orderBy('id').execute();
    [main, branch, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
    const b = hospitals.find((x) => x.code === 'H002')!.id;
    expect((await call(h.app, 'POST', '/api/auth/switch_hospital', { token: branch, payload: { hospital_id: b } })).statusCode).toBe(200);

    const ward = { type: 'string', maxLength: 40, label: { 'zh-CN': '转诊病区', 'en-US': 'Referring ward' }, options: [
      { value: 'icu', label: { 'zh-CN': '重症', 'en-US': 'ICU' } }, { value: 'ward3', label: { 'zh-CN': '三病区', 'en-US': 'Ward 3' } }] };
    const saves: [string, object][] = [
      ['/api/schemas/CaseList', { list: { columns: [{ field: 'patient_name', label: { 'zh-CN': '患者', 'en-US': 'Patient' } }, { field: 'pathology_number' }] } }],
      ['/api/contracts/cases', { fields: { referring_ward: ward }, rules: { requiredIf: { referring_ward: { '==': [{ var: 'case_type' }, 'frozen'] } } } }],
      ['/api/rules/search-operators', { rules: { boolean: ['='] } }],
    ];
    for (const [url, override] of saves) {
      const res = await call(h.app, 'PUT', url, { token: main, payload: { override, note: 'set up' } });
      expect(res.statusCode, res.body).toBe(200);
    }
  });
  afterAll(async () => { await h.close(); });

  const effective = async (token: string) => ({
    pages: await Promise.all(ALIASES.map(async (a) => {
      const d = (await call(h.app, 'GET', `/api/schemas/${a}`, { token })).json().data;
      return { schema: d.schema, contract: d.resource?.contract };
    })),
    rules: (await call(h.app, 'GET', '/api/rules', { token })).json().data.map((l: { schema: unknown }) => l.schema),
  });
  const versionsOf = async (token: string) => (await call(h.app, 'GET', '/api/schemas/CaseList/versions', { token })).json().data.length;
  const exported = async () => {
    const res = await call(h.app, 'GET', '/api/schema-config/export', { token: main });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data;
  };

  it('carries the configuration to another hospital: the effective pages and rules become identical', async () => {
    const file = await exported();
    expect(file).toMatchObject({ format: 'dsms-hospital-config', formatVersion: 1 });
    expect(Object.keys(file.documents.pages)).toEqual(['CaseList']);
    expect(await effective(branch)).not.toEqual(await effective(main));

    // The preview (issue 31: the import dialog) names what the file would set, and writes nothing.
    const before = await versionsOf(branch);
    const preview = await call(h.app, 'POST', '/api/schema-config/import/preview', { token: branch, payload: file });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().data.changes).toEqual({
      pages: [{ key: 'CaseList', change: 'set' }], rules: [{ key: 'search-operators', change: 'set' }], contracts: [{ key: 'cases', change: 'set' }], menus: [],
    });
    expect(await versionsOf(branch)).toBe(before);
    expect(await effective(branch)).not.toEqual(await effective(main));

    const res = await call(h.app, 'POST', '/api/schema-config/import', { token: branch, payload: file });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.changed).toEqual({ pages: ['CaseList'], rules: ['search-operators'], contracts: ['cases'], menus: [] });
    expect(await effective(branch)).toEqual(await effective(main));
    // The same file again changes nothing: no new versions.
    const again = await call(h.app, 'POST', '/api/schema-config/import', { token: branch, payload: file });
    expect(again.json().data.changed).toEqual({ pages: [], rules: [], contracts: [], menus: [] });
    // A file without the page sends the page back to its base: the preview says so.
    const fewer = structuredClone(file);
    delete fewer.documents.pages.CaseList;
    const { checksumOf } = await import('../../server/modules/schemas/transfer.js');
    fewer.checksum = checksumOf(fewer.documents);
    const reset = await call(h.app, 'POST', '/api/schema-config/import/preview', { token: branch, payload: fewer });
    expect(reset.json().data.changes.pages).toEqual([{ key: 'CaseList', change: 'reset' }]);
  });

  it('refuses a tampered or invalid file whole, with every reason, and changes nothing', async () => {
    const file = await exported();
    const before = await effective(branch);
    const count = await versionsOf(branch);
    const refused = async (payload: object, paths: string[]) => {
      const res = await call(h.app, 'POST', '/api/schema-config/import', { token: branch, lang: 'en-US', payload });
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().message).toMatch(/^The configuration file is refused, nothing was imported: /);
      expect(Object.keys(res.json().errors)).toEqual(expect.arrayContaining(paths));
    };

    // Edited by hand after the export: the checksum no longer matches.
    const tampered = structuredClone(file);
    tampered.documents.pages.CaseList.list.columns[0].label['en-US'] = 'Someone else';
    await refused(tampered, ['checksum']);

    // Consistent checksum but invalid documents: each one's problem is named, and the valid ones are not saved either.
    const invalid = structuredClone(file);
    invalid.documents.pages.CaseList.list.columns.push({ field: 'age', colour: 'red' });
    invalid.documents.pages.NoSuchPage = { title: 'x' };
    invalid.documents.contracts.cases.fields.referring_ward.type = 'blob';
    invalid.documents.rules['case-status'] = { name: 'renamed' };
    const { checksumOf } = await import('../../server/modules/schemas/transfer.js');
    invalid.checksum = checksumOf(invalid.documents);
    await refused(invalid, ['pages/NoSuchPage', 'contracts/cases/fields/referring_ward/type', 'rules/case-status/name']);
    const res = await call(h.app, 'POST', '/api/schema-config/import', { token: branch, lang: 'en-US', payload: invalid });
    expect(Object.keys(res.json().errors).some((p) => p.startsWith('pages/CaseList/list/columns/'))).toBe(true);

    await refused({ ...file, format: 'something-else', formatVersion: 9 }, ['format', 'formatVersion']);
    const previewed = await call(h.app, 'POST', '/api/schema-config/import/preview', { token: branch, lang: 'en-US', payload: tampered });
    expect(previewed.statusCode).toBe(422);
    expect(Object.keys(previewed.json().errors)).toContain('checksum');
    expect(await effective(branch)).toEqual(before);
    expect(await versionsOf(branch)).toBe(count);
  });

  it('is for schema editors only', async () => {
    expect((await call(h.app, 'GET', '/api/schema-config/export', { token: registrar })).statusCode).toBe(403);
    const file = await exported();
    expect((await call(h.app, 'POST', '/api/schema-config/import', { token: registrar, payload: file })).statusCode).toBe(403);
    expect((await call(h.app, 'POST', '/api/schema-config/import/preview', { token: registrar, payload: file })).statusCode).toBe(403);
  });
});
