import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { publicSettingKeys, settingVisibility } from './declared.js';

describe('declared settings', () => {
  it('answers only keys it names, never inherited object properties', () => {
    expect(settingVisibility('system_config')).toBe('user');
    expect(settingVisibility('lang')).toBe('public');
    for (const key of ['slide_download_key', 'constructor', '__proto__', 'toString', 'mail_server']) expect(settingVisibility(key)).toBeUndefined();
    expect(publicSettingKeys()).not.toContain('system_config');
  });

  it('declares every setting a base page form edits', () => {
    const dir = path.resolve('schemas/pages');
    const keys = fs.readdirSync(dir).filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8'))?.form?.source?.setting)
      .filter((k): k is string => typeof k === 'string');
    expect(keys.length).toBeGreaterThan(0);
    for (const key of keys) expect(settingVisibility(key), key).toBeDefined();
  });
});
