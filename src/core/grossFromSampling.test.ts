import { describe, expect, it } from 'vitest';
import { grossFromSampling } from './grossFromSampling';

const line = (name: string, text: string) => `${name}：${text}`;

describe('the gross description a new report starts from', () => {
  it('is the one specimen\'s description, once however many blocks carry it', () => {
    const blocks = [{ specimen_id: 1, description: '灰白色组织一块，切面实性' }, { specimen_id: 1, description: '灰白色组织一块，切面实性' }];
    expect(grossFromSampling([{ id: 1, name: '胃窦' }], blocks, line)).toBe('灰白色组织一块，切面实性');
  });

  it('names each specimen when there are several, in their order, skipping those without text', () => {
    const specimens = [{ id: 1, name: '胃窦' }, { id: 2, name: '胃体' }, { id: 3, name: '十二指肠' }];
    const blocks = [{ specimen_id: 2, description: ' 黏膜一粒 ' }, { specimen_id: 1, description: '组织两粒' }, { specimen_id: 3, description: null }, { specimen_id: 1, description: '' }];
    expect(grossFromSampling(specimens, blocks, line)).toBe('胃窦：组织两粒\n胃体：黏膜一粒');
  });

  it('keeps blocks of no specimen unnamed, and is empty when nothing was described', () => {
    expect(grossFromSampling([{ id: 1, name: 'A' }], [{ specimen_id: 1, description: 'one' }, { specimen_id: null, description: 'outside' }], line)).toBe('A：one\noutside');
    expect(grossFromSampling([{ id: 1, name: 'A' }], [{ specimen_id: 1 }], line)).toBe('');
    expect(grossFromSampling([], [], line)).toBe('');
  });
});
