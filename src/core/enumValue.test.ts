import { describe, expect, it } from 'vitest';
import { enumOptionsOf } from './enumValue.js';

const qcReason = [
  { value: 'blurry', label: { 'zh-CN': '图像模糊', 'en-US': 'Blurry image' } },
  { value: 'wrong_area', label: { 'zh-CN': '扫描区域错误', 'en-US': 'Wrong scan area' } },
];
const statuses = [{ value: 1, label: 'one' }, { value: 'a,b', label: 'a and b' }];

describe('the options a cell value names', () => {
  it('a value names its option (numbers match their text)', () => {
    expect(enumOptionsOf(qcReason, 'blurry')).toEqual([qcReason[0]]);
    expect(enumOptionsOf(statuses, '1')).toEqual([statuses[0]]);
    expect(enumOptionsOf(statuses, 1)).toEqual([statuses[0]]);
  });
  it('a list kept as comma-separated text names each part\'s option (a slide\'s QC reasons)', () => {
    expect(enumOptionsOf(qcReason, 'blurry,wrong_area')).toEqual(qcReason);
    expect(enumOptionsOf(qcReason, 'wrong_area, blurry')).toEqual([qcReason[1], qcReason[0]]);
  });
  it('an option whose own value has a comma is taken whole', () => {
    expect(enumOptionsOf(statuses, 'a,b')).toEqual([statuses[1]]);
  });
  it('names none when a part is unknown, the value is unknown, or there is no enum', () => {
    expect(enumOptionsOf(qcReason, 'blurry,smudged')).toBeNull();
    expect(enumOptionsOf(qcReason, 'dust')).toBeNull();
    expect(enumOptionsOf(qcReason, 'blurry,')).toBeNull();
    expect(enumOptionsOf(undefined, 'blurry')).toBeNull();
  });
});
