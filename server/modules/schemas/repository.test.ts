import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadRuleSets } from './repository.js';

/** The rule files are checked at start: a broken one stops the server, naming the file and the place. */
describe('loadRuleSets', () => {
  const dirs: string[] = [];
  afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));
  const withFiles = (files: Record<string, string>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rules-'));
    dirs.push(dir);
    for (const [name, text] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), text);
    return dir;
  };
  const description = { 'zh-CN': '测试', 'en-US': 'Test' };
  const file = (name: string, rules: object) => JSON.stringify({ name, description, rules });

  it('loads the repository\'s rule sets by name', () => {
    expect([...loadRuleSets().keys()]).toEqual(expect.arrayContaining(['case-status', 'forms', 'search-operators']));
  });

  it('loads sets that refer to each other', () => {
    const dir = withFiles({ 'a.json': file('a', { x: { rule: 'b.y' } }), 'b.json': file('b', { y: true }) });
    expect([...loadRuleSets(dir).keys()]).toEqual(['a', 'b']);
  });

  it.each([
    ['not JSON', { 'bad.json': '{ "name": ' }, /bad\.json refused: not JSON/],
    ['misnamed', { 'bad.json': file('other', {}) }, /bad\.json refused: \/name must be "bad", the file's name/],
    ['an unknown operation', { 'bad.json': file('bad', { r: { exec: 'rm' } }) }, /bad\.json refused: \/rules\/r\/exec unknown operation "exec"/],
    ['a missing reference', { 'bad.json': file('bad', { r: { rule: 'gone.x' } }) }, /bad\.json refused: \/rules\/r rule gone\.x does not exist/],
    ['an operator the server cannot run', { 'search-operators.json': file('search-operators', { input: ['~'] }) }, /search-operators\.json refused: \/rules\/input not an operator the server runs: "~"/],
  ])('refuses a file with %s', (_, files, message) => {
    expect(() => loadRuleSets(withFiles(files))).toThrow(message);
  });
});
