import { describe, expect, it } from 'vitest';
import { resolveLabel, resolveUiSchemaLabels } from './labels.js';

const dict: Record<string, string> = { 'common.confirm': 'Confirm' };
const translate = (key: string) => dict[key];

describe('resolveLabel: labels are i18n keys or inline { "zh-CN", "en-US" } text', () => {
  it('picks the current language from inline text', () => {
    expect(resolveLabel({ 'zh-CN': '账号', 'en-US': 'Account' }, 'en-US')).toBe('Account');
    expect(resolveLabel({ 'zh-CN': '账号', 'en-US': 'Account' }, 'zh-CN')).toBe('账号');
  });
  it('falls back to the default language, then to any text', () => {
    expect(resolveLabel({ 'zh-CN': '账号' }, 'en-US')).toBe('账号');
    expect(resolveLabel({ 'en-US': 'Account' }, 'zh-CN')).toBe('Account');
  });
  it('translates a known key and shows unknown strings as typed', () => {
    expect(resolveLabel('common.confirm', 'en-US', translate)).toBe('Confirm');
    expect(resolveLabel('床位号', 'en-US', translate)).toBe('床位号');
    expect(resolveLabel(undefined, 'en-US')).toBe('');
  });
  it('resolves ui:title, ui:help, ui:description, ui:placeholder at any depth, leaving other values alone', () => {
    const ui = {
      'ui:order': ['name', '*'],
      name: { 'ui:title': { 'zh-CN': '账号', 'en-US': 'Account' }, 'ui:placeholder': 'common.confirm', 'ui:widget': 'text' },
      nested: { inner: { 'ui:help': { 'zh-CN': '帮助', 'en-US': 'Help' }, 'ui:options': { options: 'user_status', title: { 'zh-CN': '标题', 'en-US': 'Title' } } } },
    };
    expect(resolveUiSchemaLabels(ui, 'en-US', translate)).toEqual({
      'ui:order': ['name', '*'],
      name: { 'ui:title': 'Account', 'ui:placeholder': 'Confirm', 'ui:widget': 'text' },
      nested: { inner: { 'ui:help': 'Help', 'ui:options': { options: 'user_status', title: 'Title' } } },
    });
  });
});
