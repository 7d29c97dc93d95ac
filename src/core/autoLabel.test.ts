import { describe, expect, it } from 'vitest';
import { matchLabels } from './autoLabel';

const labels = [
  { id: 1, name: '乳腺', en_name: 'Breast' },
  { id: 2, name: '胃', en_name: 'Stomach' },
  { id: 3, name: '淋巴结', en_name: 'Lymph node' },
  { id: 4, name: '肿瘤', en_name: null },
];

describe('automatic labelling', () => {
  it('matches a label named in the specimen or diagnosis, in either language', () => {
    expect(matchLabels(labels, ['乳腺穿刺组织', '乳腺肿瘤？'])).toEqual([1, 4]);
    expect(matchLabels(labels, ['LYMPH NODE, left neck'])).toEqual([3]);
    expect(matchLabels(labels, ['ｂｒｅａｓｔ core'])).toEqual([1]);
  });
  it('takes one Chinese character as a word, never one Latin letter, never nothing', () => {
    expect(matchLabels(labels, ['胃黏膜活检'])).toEqual([2]);
    expect(matchLabels([{ id: 9, name: 'x', en_name: 'B' }], ['breast biopsy'])).toEqual([]);
    expect(matchLabels(labels, [null, undefined, ''])).toEqual([]);
  });
});
