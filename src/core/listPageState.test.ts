import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { listDefaults, openingTab } from './listPageState';
import type { ListSchema, TabSchema } from './pageSchema';

const label = { 'zh-CN': 'x', 'en-US': 'x' };
const tabs: TabSchema[] = [
  { key: 'to_first', label, openFor: ['primary_doctor'] },
  { key: 'to_audit', label, openFor: ['follow_up_doctor'] },
  { key: 'to_sign', label, openFor: ['auditing_doctor'] },
  { key: 'all', label },
];

describe('the tab a list opens on', () => {
  it('is the first tab naming one of the user\'s roles, else the first tab', () => {
    expect(openingTab(tabs, ['follow_up_doctor'])).toBe('to_audit');
    expect(openingTab(tabs, ['auditing_doctor'])).toBe('to_sign');
    expect(openingTab(tabs, ['primary_doctor'])).toBe('to_first');
    // Several roles: the earliest of their tabs.
    expect(openingTab(tabs, ['auditing_doctor', 'follow_up_doctor'])).toBe('to_audit');
    expect(openingTab(tabs, ['registrar'])).toBe('to_first');
    expect(openingTab(tabs)).toBe('to_first');
    expect(openingTab([], ['follow_up_doctor'])).toBe('');
    expect(openingTab(undefined)).toBe('');
  });

  it('is what the page\'s defaults start from', () => {
    expect(listDefaults({ tabs }, ['follow_up_doctor']).tab).toBe('to_audit');
    expect(listDefaults({ tabs }).tab).toBe('to_first');
  });

  it('follows the doctor\'s role on DiagnosisList', () => {
    const list = (JSON.parse(fs.readFileSync('schemas/pages/DiagnosisList.json', 'utf8')) as { list: ListSchema }).list;
    expect(openingTab(list.tabs, ['primary_doctor'])).toBe('to_first');
    expect(openingTab(list.tabs, ['follow_up_doctor'])).toBe('to_audit');
    expect(openingTab(list.tabs, ['auditing_doctor'])).toBe('to_sign');
    expect(openingTab(list.tabs, ['allocation'])).toBe('to_first');
  });
});
