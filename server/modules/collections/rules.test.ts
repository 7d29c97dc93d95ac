import { describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.js';
import { categoryName, collectableHospitals, remark } from './rules.js';

const refusal = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    return e as AppError;
  }
  throw new Error('expected a refusal');
};

describe('favourites rules', () => {
  it('a category name is trimmed, required and at most 64 characters (counted as characters, not bytes)', () => {
    expect(categoryName('  教学病例 ')).toBe('教学病例');
    expect(categoryName('病'.repeat(64))).toBe('病'.repeat(64));
    const empty = refusal(() => categoryName('   '));
    expect(empty.status).toBe(422);
    expect(empty.fieldErrors?.name).toEqual([{ key: 'validation.required', params: { field: 'msg:collection.field.name' } }]);
    expect(refusal(() => categoryName(undefined)).fieldErrors?.name?.[0].key).toBe('validation.required');
    expect(refusal(() => categoryName('x'.repeat(65))).fieldErrors?.name).toEqual([{ key: 'validation.maxLength', params: { field: 'msg:collection.field.name', limit: 64 } }]);
  });

  it('a remark is trimmed, empty means none, at most 500 characters, text only', () => {
    expect(remark('  典型  ')).toBe('典型');
    expect(remark('   ')).toBeNull();
    expect(remark(null)).toBeNull();
    expect(remark('r'.repeat(500))).toHaveLength(500);
    expect(refusal(() => remark('r'.repeat(501))).fieldErrors?.remark?.[0].key).toBe('validation.maxLength');
    expect(refusal(() => remark(42)).fieldErrors?.remark?.[0].key).toBe('validation.type');
  });

  it('a user may collect slides of every hospital they work in; without any, the no-hospital installation\'s 0', () => {
    expect(collectableHospitals({ hospitalIds: [1, 2], hospitalId: 2 }).sort()).toEqual([1, 2]);
    expect(collectableHospitals({ hospitalIds: [1], hospitalId: 3 }).sort()).toEqual([1, 3]);
    expect(collectableHospitals({ hospitalIds: [], hospitalId: null })).toEqual([0]);
  });
});
