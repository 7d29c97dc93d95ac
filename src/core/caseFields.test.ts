import { describe, expect, it } from 'vitest';
import { extraOf, registeredFields, registeredValue } from './caseFields';
import type { Contract } from './contract';

const contract: Contract = {
  fields: {
    patient_name: { type: 'string', label: { 'zh-CN': '姓名', 'en-US': 'Patient name' } },
    id_number: { type: 'string', label: { 'zh-CN': '身份证号', 'en-US': 'ID number' } },
    nation: { type: 'string' },
    specimens: { type: 'array' },
    referring_ward: { type: 'string', options: [{ value: 'er', label: { 'zh-CN': '急诊', 'en-US': 'Emergency' } }] },
  },
  extended: ['referring_ward'],
};

describe('the fields registration stored on a case (issue 31 item 9)', () => {
  it('follows the form\'s layout, leaves the specimens to their own table and ends with added fields the layout does not place', () => {
    const fields = registeredFields(['patient_name', { field: 'id_number' }, 'nation', { field: 'specimens' }], contract);
    expect(fields.map((f) => [f.name, f.added])).toEqual([['patient_name', false], ['id_number', false], ['nation', false], ['referring_ward', true]]);
    expect(fields[1].def.label).toEqual({ 'zh-CN': '身份证号', 'en-US': 'ID number' });
  });

  it('the layout\'s own label and options for a field win over the contract\'s', () => {
    const [kind] = registeredFields([{ field: 'patient_name', options: 'case_type', label: 'x.y' }], contract);
    expect(kind.def).toEqual({ type: 'string', label: 'x.y', options: 'case_type' });
  });

  it('an added field the layout places keeps its place, once; a field the contract does not know is still shown by name', () => {
    const fields = registeredFields(['referring_ward', 'patient_name', 'bed_number'], contract);
    expect(fields.map((f) => f.name)).toEqual(['referring_ward', 'patient_name', 'bed_number']);
    expect(fields[2].def).toEqual({ type: 'string' });
    expect(registeredFields(['patient_name'], undefined).map((f) => f.name)).toEqual(['patient_name']);
  });

  it('reads the column, else the case\'s extra; nothing typed reads as undefined', () => {
    const extra = extraOf('{"nation":"汉族","referring_ward":"er","tags":[]}');
    const row = { patient_name: '张伟', id_number: '', phone: null };
    expect(registeredValue(row, extra, 'patient_name')).toBe('张伟');
    expect(registeredValue(row, extra, 'nation')).toBe('汉族');
    expect(registeredValue(row, extra, 'referring_ward')).toBe('er');
    expect(registeredValue(row, extra, 'id_number')).toBeUndefined();
    expect(registeredValue(row, extra, 'phone')).toBeUndefined();
    expect(registeredValue(row, extra, 'tags')).toBeUndefined();
  });

  it('extra as the lab route sends it (JSON text) or as an object; anything else holds nothing', () => {
    expect(extraOf({ a: 1 })).toEqual({ a: 1 });
    expect(extraOf('not json')).toEqual({});
    expect(extraOf('[1]')).toEqual({});
    expect(extraOf(null)).toEqual({});
  });
});
