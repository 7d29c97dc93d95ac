import { describe, expect, it } from 'vitest';
import { layerContract, withoutEmptyParts, type Contract } from './contract';
import type { PageSchema, ResourceField, ResourceInfo } from './pageSchema';
import { pickableFields, publicFields, resolveColumn, resolvePage, withAddedFields } from './resolvePage';

const ward = {
  type: 'string' as const, label: { 'zh-CN': '转诊病区', 'en-US': 'Referring ward' },
  options: [{ value: 'icu', label: { 'zh-CN': '重症监护', 'en-US': 'ICU' } }, { value: 'er', label: { 'zh-CN': '急诊', 'en-US': 'Emergency' } }],
};
const base: Contract = { fields: { case_type: { type: 'string', options: 'case_type' } } };
const fields: Record<string, ResourceField> = { case_type: { type: 'string', options: 'case_type', filter: true, sort: true, search: false } };

describe('a hospital\'s added fields as list columns', () => {
  it('withAddedFields adds the extension\'s fields, filterable and sortable when scalar, never keyword-searched, and never over a resource field', () => {
    const contract = layerContract(base, { fields: { referring_ward: ward, ward_bed: { type: 'integer' }, seen_on: { type: 'date' }, tags: { type: 'array', items: 'string' }, raw: { type: 'json' } } });
    const out = withAddedFields(fields, contract);
    expect(out.case_type).toEqual(fields.case_type);
    expect(out.referring_ward).toEqual({ type: 'string', label: ward.label, options: ward.options, filter: true, sort: true, search: false, added: true });
    expect(out.ward_bed).toMatchObject({ filter: true, sort: true, added: true });
    expect(out.seen_on).toMatchObject({ filter: true, sort: true });
    // An array or JSON value has no order nor an equality a list filter could use (server/resources/extra-fields.ts).
    expect(out.tags).toMatchObject({ filter: false, sort: false, added: true });
    expect(out.raw).toMatchObject({ filter: false, sort: false });
    // A resource field of the same name stays the resource's (an extension cannot redefine one anyway).
    expect(withAddedFields({ ...fields, referring_ward: { type: 'integer', sort: true } }, contract).referring_ward).toEqual({ type: 'integer', sort: true });
  });

  it('drops the added fields it is given before adding the contract\'s (a draft that removed one)', () => {
    const saved = withAddedFields(fields, layerContract(base, { fields: { referring_ward: ward } }));
    expect(Object.keys(withAddedFields(saved, base))).toEqual(['case_type']);
    expect(Object.keys(withAddedFields(saved, undefined))).toEqual(['case_type']);
  });

  it('a column of an added field with inline options carries them as choices, so its cell shows their words', () => {
    const out = withAddedFields(fields, layerContract(base, { fields: { referring_ward: ward } }));
    const column = resolveColumn({ field: 'referring_ward' }, out);
    expect(column).toMatchObject({ field: 'referring_ward', label: ward.label, cell: 'enum', choices: ward.options, sortable: true });
    // An enum-backed column keeps naming its enum, with no choices of its own.
    expect(resolveColumn({ field: 'case_type' }, out)).toMatchObject({ options: 'case_type', cell: 'enum', sortable: true });
    expect(resolveColumn({ field: 'case_type' }, out).choices).toBeUndefined();
  });

  it('leaves out a column, or a detail field, whose field is gone (an added field deleted after an override named it)', () => {
    const resource = { name: 'cases', route: '/api/pathology', rowKey: 'id', fields, contract: base } as ResourceInfo;
    const page = { resource: 'cases', list: { columns: [{ field: 'case_type' }, { field: 'referring_ward' }] }, detail: { sections: [{ title: 'x', fields: [{ field: 'referring_ward' }, { field: 'case_type' }] }] } } as unknown as PageSchema;
    const { schema } = resolvePage({ alias: 'CaseList', version: 1, schema: page, resource });
    expect(schema.list!.columns.map((c) => c.field)).toEqual(['case_type']);
    expect(schema.detail!.sections[0].fields.map((c) => c.field)).toEqual(['case_type']);
    // A page without a resource has no fields to check against: its columns stay.
    expect(resolvePage({ alias: 'X', version: 1, schema: page, resource: null }).schema.list!.columns).toHaveLength(2);
  });

  it('withoutEmptyParts leaves what a contract says, so a layered version diffs against the base by its additions only', () => {
    const layered = layerContract(base, { fields: { referring_ward: ward } });
    expect(layered.rules).toEqual({ visibleIf: {}, requiredIf: {}, checks: [] });
    expect(withoutEmptyParts(layered)).toEqual({ fields: { ...base.fields, referring_ward: ward }, extended: ['referring_ward'] });
    expect(withoutEmptyParts(layerContract(base, { rules: { checks: [{ field: 'case_type', rule: true, message: 'x' }] } })))
      .toEqual({ fields: base.fields, rules: { checks: [{ field: 'case_type', rule: true, message: 'x' }] } });
    expect(withoutEmptyParts(base)).toEqual(base);
  });
});

describe('fields the designer pickers offer (issue 31)', () => {
  const resource = publicFields({
    id: { type: 'integer', filter: true },
    allocation_at: { type: 'datetime', filter: true },
    patient_name: { type: 'string', filter: true, label: { 'zh-CN': '姓名', 'en-US': 'Patient' } },
    age: { type: 'integer', label: { 'zh-CN': '年龄', 'en-US': 'Age' } },
    version: { type: 'integer', label: 'version', internal: true },
    library: { type: 'string', internal: false },
  });

  it('a column without a label, or declared internal, is internal; a label or internal: false offers it', () => {
    expect(resource.id.internal).toBe(true);
    expect(resource.allocation_at.internal).toBe(true);
    expect(resource.version.internal).toBe(true);
    expect(resource.patient_name.internal).toBeUndefined();
    expect(resource.library.internal).toBeUndefined();
  });

  it('offers the others by their label in the language, ordered by it, added fields marked', () => {
    const all = withAddedFields(resource, { fields: { ward }, extended: ['ward'] });
    expect(pickableFields(all, Object.keys(all), 'en-US')).toEqual([
      { name: 'age', label: 'Age', added: false }, { name: 'library', label: 'library', added: false },
      { name: 'patient_name', label: 'Patient', added: false }, { name: 'ward', label: 'Referring ward', added: true },
    ]);
    expect(pickableFields(all, ['patient_name', 'id', 'gone'], 'zh-CN')).toEqual([{ name: 'patient_name', label: '姓名', added: false }]);
  });
});
