import { describe, expect, it } from 'vitest';
import { resolveLabel } from './labels';
import { optionLabel } from './optionLabel';

describe('a resource row as a select option label', () => {
  const hospital = { id: 3, name: '示范医院总院', en_name: 'Demo General Hospital' };
  const perLanguage = { 'zh-CN': 'name', 'en-US': 'en_name' };

  it('follows the UI language when the resource names a column per language', () => {
    const label = optionLabel(hospital, perLanguage, 'id');
    expect(resolveLabel(label, 'zh-CN')).toBe('示范医院总院');
    expect(resolveLabel(label, 'en-US')).toBe('Demo General Hospital');
  });

  it('falls back to the other language when a row has no text in this one, and to the value when it has none', () => {
    expect(resolveLabel(optionLabel({ id: 4, name: '分院', en_name: '' }, perLanguage, 'id'), 'en-US')).toBe('分院');
    expect(resolveLabel(optionLabel({ id: 5, name: null, en_name: 'Branch' }, perLanguage, 'id'), 'zh-CN')).toBe('Branch');
    expect(resolveLabel(optionLabel({ id: 6, name: ' ', en_name: null }, perLanguage, 'id'), 'en-US')).toBe('6');
  });

  it('keeps one column for every language', () => {
    expect(optionLabel({ id: 1, name: '管理员' }, 'name', 'id')).toBe('管理员');
    expect(optionLabel({ code: 'case_view', description: '' }, 'description', 'code')).toBe('case_view');
    expect(optionLabel({ id: 2, name: 'x' }, undefined, 'id')).toBe('x');
  });
});
