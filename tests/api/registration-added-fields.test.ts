import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, databases, startApp, tokenFor, type Harness } from './harness.js';

/**
 * Issue 13: a field an administrator adds to cases in the page designer reaches the full registration form
 * (GET /api/schemas/CaseRegistration carries the form's contract with the hospital's extension) and the register
 * command, which checks it with the same form rules (src/core/formRules: required-when, its options, its size)
 * and keeps it in the case's extra; the case detail and CaseList read it there. A field neither the command nor
 * the hospital's form knows is still refused by name, in the user's language, and nothing is written. Both databases.
 */
describe.each(databases)('registration with the fields a hospital added [%s]', (kind) => {
  let h: Harness;
  let admin: string;
  let registrar: string;
  const post = (payload: object, lang = 'en-US') => call(h.app, 'POST', '/api/pathology/register', { token: registrar, lang, payload });
  const caseCount = async () => Number((await h.db.selectFrom('cases').select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow()).n);
  const specimens = [{ name: '组织' }];
  const refused = async (payload: object, field: string, en: string, zh: string) => {
    const before = await caseCount();
    for (const [lang, text] of [['en-US', en], ['zh-CN', zh]] as const) {
      const res = await post(payload, lang);
      expect(res.statusCode, res.body).toBe(422);
      expect(res.json().errors?.[field]).toContain(text);
    }
    expect(await caseCount()).toBe(before);
  };

  beforeAll(async () => {
    h = await startApp(kind);
    [admin, registrar] = await Promise.all([tokenFor(h.app, 'admin'), tokenFor(h.app, 'registrar')]);
  });
  afterAll(async () => h?.close());

  it('before the hospital adds it, the field is unknown: refused by name, nothing written', async () => {
    await refused({ case_type: 'frozen', referring_ward: 'icu', specimens }, 'referring_ward',
      'referring_ward is not a field of this form and cannot be saved', 'referring_ward 不是此表单的字段，不能保存');
    const form = (await call(h.app, 'GET', '/api/schemas/CaseRegistration', { token: registrar })).json().data;
    expect(form.formContract.fields.referring_ward).toBeUndefined();
  });

  it('once added, the registration form carries it and the server holds its rule, options and size', async () => {
    const ward = { type: 'string', label: { 'zh-CN': '转诊病区', 'en-US': 'Referring ward' }, options: [
      { value: 'icu', label: { 'zh-CN': '重症监护', 'en-US': 'ICU' } }, { value: 'ward3', label: { 'zh-CN': '三病区', 'en-US': 'Ward 3' } },
      { value: 'er', label: { 'zh-CN': '急诊', 'en-US': 'Emergency' } }] };
    const note = { type: 'string', maxLength: 10, label: { 'zh-CN': '转诊备注', 'en-US': 'Referral note' } };
    const override = {
      fields: { referring_ward: ward, referral_note: note },
      // A rule about a cases field the registration form does not carry stays out of the form (layerOwnContract).
      rules: { requiredIf: { referring_ward: { '==': [{ var: 'case_type' }, 'frozen'] }, specimen_name: { '==': [1, 1] } } },
    };
    const saved = await call(h.app, 'PUT', '/api/contracts/cases', { token: admin, payload: { override, note: 'referring ward' } });
    expect(saved.statusCode, saved.body).toBe(200);

    const form = (await call(h.app, 'GET', '/api/schemas/CaseRegistration', { token: registrar })).json().data;
    expect(form.formContract.fields.referring_ward).toEqual(ward);
    expect(form.formContract.extended).toEqual(['referring_ward', 'referral_note']);
    expect(form.formContract.rules.requiredIf.referring_ward).toEqual({ '==': [{ var: 'case_type' }, 'frozen'] });
    expect(form.formContract.rules.requiredIf.specimen_name).toBeUndefined();
    // The page itself is untouched: the designer edits the page, not the layered contract.
    expect(form.schema.form.contract.fields.referring_ward).toBeUndefined();

    await refused({ case_type: 'frozen', specimens }, 'referring_ward', 'Referring ward is required', '转诊病区 为必填项');
    await refused({ case_type: 'frozen', referring_ward: 'nowhere', specimens }, 'referring_ward',
      'Referring ward is not one of the allowed values', '转诊病区 不是允许的取值');
    await refused({ case_type: 'routine', referral_note: '0123456789X', specimens }, 'referral_note',
      'Referral note allows at most 10 characters', '转诊备注 最多 10 个字符');
    await refused({ case_type: 'routine', colour: 'red', specimens }, 'colour', 'colour is not a field of this form and cannot be saved', 'colour 不是此表单的字段，不能保存');
    // An object is no value of an added field: refused by the body's bounds before anything runs.
    const nested = await post({ case_type: 'routine', referral_note: { a: 1 }, specimens });
    expect(nested.statusCode).toBe(422);

    expect((await post({ case_type: 'routine', specimens })).statusCode).toBe(200);
    const res = await post({ case_type: 'frozen', referring_ward: 'icu', referral_note: 'from ICU', nation: '汉族', specimens });
    expect(res.statusCode, res.body).toBe(200);
    const created = res.json().data;
    expect(JSON.parse(created.extra)).toEqual({ nation: '汉族', referring_ward: 'icu', referral_note: 'from ICU' });
    const lab = (await call(h.app, 'GET', `/api/pathology/${created.id}/lab`, { token: registrar })).json().data;
    expect(JSON.parse(lab.case.extra).referring_ward).toBe('icu');
    // CaseList's rows spread the case's extra: the field is there for a column or the case form.
    const list = (await call(h.app, 'GET', `/api/pathology/lists?page=1&page_size=5&search=${created.pathology_number}`, { token: registrar })).json().data.data;
    expect(list.find((r: { id: number }) => r.id === created.id).referring_ward).toBe('icu');
  });

  it('CaseList may show the added field as a column: its resource fields carry it, sortable and filterable (issue 31); another hospital never sees it', async () => {
    const fieldsOf = async (token: string) => (await call(h.app, 'GET', '/api/schemas/CaseList', { token })).json().data.resource.fields;
    expect((await fieldsOf(registrar)).referring_ward).toMatchObject({ type: 'string', label: { 'en-US': 'Referring ward' }, sort: true, filter: true, added: true });
    expect((await fieldsOf(registrar)).referring_ward.options.map((o: { value: string }) => o.value)).toEqual(['icu', 'ward3', 'er']);
    // The value lives in the case's extra; the list sorts and filters by it there (tests/api/list-added-fields.test.ts).
    const list = (query: string) => call(h.app, 'GET', `/api/pathology/lists?page=1&page_size=5&${query}`, { token: registrar, lang: 'en-US' });
    expect((await list(`sort_by=${encodeURIComponent('{"referring_ward":"asc"}')}`)).statusCode).toBe(200);
    expect((await list(`filter=${encodeURIComponent('[{"column":"referring_ward","operator":"=","value":"icu"}]')}`)).statusCode).toBe(200);

    // An administrator of the second hospital: neither the field nor a value of it there, nor a way to write one.
    const other = await tokenFor(h.app, 'admin');
    const hospitals = await h.db.selectFrom('hospitals').select(['id', 'code']).execute();
    const switched = await call(h.app, 'POST', '/api/auth/switch_hospital', { token: other, payload: { hospital_id: hospitals.find((x) => x.code === 'H002')!.id } });
    expect(switched.statusCode, switched.body).toBe(200);
    expect((await fieldsOf(other)).referring_ward).toBeUndefined();
    const rows = (await call(h.app, 'GET', '/api/pathology/lists?page=1&page_size=100', { token: other })).json().data.data as Record<string, unknown>[];
    expect(rows.some((r) => 'referring_ward' in r)).toBe(false);
    const stored = await call(h.app, 'POST', '/api/pathology/store', { token: other, lang: 'en-US', payload: { pathology_number: 'H2-WARD-1', referring_ward: 'icu' } });
    expect(stored.statusCode, stored.body).toBe(422);
  });

  it('rolled back, the field is unknown again', async () => {
    expect((await call(h.app, 'POST', '/api/contracts/cases/rollback', { token: admin, payload: { version: 0 } })).statusCode).toBe(200);
    await refused({ case_type: 'frozen', referring_ward: 'icu', specimens }, 'referring_ward',
      'referring_ward is not a field of this form and cannot be saved', 'referring_ward 不是此表单的字段，不能保存');
    expect((await post({ case_type: 'frozen', specimens })).statusCode).toBe(200);
  });
});
