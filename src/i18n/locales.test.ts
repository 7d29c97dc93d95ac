import { describe, expect, it } from 'vitest';
import { messages } from '../../server/i18n/messages.js';
import { bundle, enUSBundle as enUS, zhCNBundle as zhCN } from './bundles';

/** Dotted keys of a nested translation object, with their values. */
function flatten(obj: object, prefix = ''): Record<string, unknown> {
  return Object.fromEntries(Object.entries(obj).flatMap(([k, v]) =>
    v && typeof v === 'object' ? Object.entries(flatten(v, `${prefix}${k}.`)) : [[`${prefix}${k}`, v]]));
}

const placeholders = (text: string) => [...text.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();

describe('translations are complete in zh-CN and en-US', () => {
  const zh = flatten(zhCN);
  const en = flatten(enUS);

  it('the browser locales have the same keys, none empty', () => {
    expect(Object.keys(en).sort()).toEqual(Object.keys(zh).sort());
    for (const [key, value] of [...Object.entries(zh), ...Object.entries(en)]) expect(value, key).toMatch(/\S/);
  });

  it('each browser key uses the same placeholders in both languages', () => {
    for (const key of Object.keys(zh)) expect(placeholders(String(en[key])), key).toEqual(placeholders(String(zh[key])));
  });

  it('every API message exists in both languages with the same placeholders', () => {
    for (const [key, text] of Object.entries(messages)) {
      expect(text['zh-CN'], key).toMatch(/\S/);
      expect(text['en-US'], key).toMatch(/\S/);
      expect(placeholders(text['en-US']), key).toEqual(placeholders(text['zh-CN']));
    }
  });
});

describe('feature translation files', () => {
  it('add their keys beside the core file, and may not redefine one', () => {
    const core = { common: { ok: 'OK' } };
    expect(bundle(core, { 'a.json': { default: { common: { cancel: 'Cancel' }, lab: { title: 'Lab' } } } }))
      .toEqual({ common: { ok: 'OK', cancel: 'Cancel' }, lab: { title: 'Lab' } });
    expect(() => bundle(core, { 'b.json': { default: { common: { ok: 'Fine' } } } })).toThrow(/b\.json redefines the translation common\.ok/);
    expect(core).toEqual({ common: { ok: 'OK' } });
  });
});
