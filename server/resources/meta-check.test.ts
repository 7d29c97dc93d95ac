import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appPath } from '../paths.js';
import { loadResources } from './definition.js';
import { resourceMetaProblems } from './meta-check.js';

const shipped = appPath('schemas', 'resources');
interface ResourceFile { columns: Record<string, object>; virtual: Record<string, { via: object }>; write?: object; [key: string]: unknown }
const read = (name: string) => JSON.parse(fs.readFileSync(path.join(shipped, `${name}.json`), 'utf8')) as ResourceFile;

describe('resource definitions are checked against schemas/meta/resource.schema.json at load', () => {
  const dirs: string[] = [];
  afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });
  const dirWith = (files: Record<string, unknown>) => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dsms-resources-'));
    dirs.push(dir);
    for (const [name, def] of Object.entries(files)) fs.writeFileSync(path.join(dir, name), JSON.stringify(def));
    return dir;
  };

  it('accepts every shipped resource', () => {
    for (const file of fs.readdirSync(shipped).filter((f) => f.endsWith('.json'))) {
      expect([file, resourceMetaProblems(JSON.parse(fs.readFileSync(path.join(shipped, file), 'utf8')))]).toEqual([file, []]);
    }
    expect(loadResources(shipped).length).toBeGreaterThan(20);
  });

  it('stops at a misspelled key, naming the file, where and the key', () => {
    const cases = read('cases');
    const { defaultSort, ...rest } = cases;
    const misspelled = { ...rest, defaultSrot: defaultSort, columns: { ...cases.columns, pathology_number: { ...cases.columns.pathology_number, serch: true } } };
    expect(() => loadResources(dirWith({ 'cases.json': misspelled })))
      .toThrow('cases.json: / unknown property "defaultSrot"; /columns/pathology_number unknown property "serch"');
  });

  it('stops at a misspelled key deeper down: a virtual join, a write rule, a field of an input', () => {
    const users = read('users');
    const [name, virtual] = Object.entries(users.virtual)[0]!;
    const bad = { ...users, virtual: { ...users.virtual, [name]: { ...virtual, via: { ...virtual.via, tabel: 'x' } } }, write: { ...users.write, rules: { requiredIff: {} } } };
    expect(resourceMetaProblems(bad)).toEqual([`/virtual/${name}/via unknown property "tabel"`, '/write/rules unknown property "requiredIff"']);
    expect(resourceMetaProblems({ ...users, inputs: { pin: { type: 'string', maxLenght: 4 } } })).toEqual(['/inputs/pin unknown property "maxLenght"']);
    expect(resourceMetaProblems({ ...users, columns: { ...users.columns, id: { ...users.columns.id, type: 'int' } } })[0]).toMatch(/^\/columns\/id\/type must be equal to one of the allowed values/);
  });
});
