import fs from 'node:fs';
import path from 'node:path';
import type { RuleSet } from '../../../src/core/rules.js';
import { checkRuleSet, checkRuleShape } from '../../../src/core/rulesCheck.js';
import { appPath } from '../../paths.js';

/** The repository's schemas/ folder: base page schemas, rule sets, enums, resources, the meta-schemas. */
export const SCHEMAS_DIR = appPath('schemas');

export type PageSchema = Record<string, unknown> & { alias: string; type: string; resource?: string };
export type EnumOption = { value: unknown; label: unknown; color?: string };

function readJsonDir<T>(dir: string): [string, T][] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()
    .map((f) => [path.basename(f, '.json'), JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as T]);
}

/** Base page schemas keyed by alias, read once: they change with a deploy, overrides change at run time. */
export function loadBasePages(dir = path.join(SCHEMAS_DIR, 'pages')): Map<string, PageSchema> {
  return new Map(readJsonDir<PageSchema>(dir).map(([, page]) => [page.alias, page]));
}

export function loadEnums(dir = path.join(SCHEMAS_DIR, 'enums')): Record<string, EnumOption[]> {
  return Object.assign({}, ...readJsonDir<Record<string, EnumOption[]>>(dir).map(([, e]) => e));
}

/**
 * Base rule sets keyed by name (schemas/rules/<name>.json). Checked here, at start: a file that is not
 * JSON, breaks the meta-schema, uses an unknown operation, is not named like its file, or refers to a
 * rule that does not exist stops the server with a message naming the file and the place.
 */
export function loadRuleSets(dir = path.join(SCHEMAS_DIR, 'rules')): Map<string, RuleSet> {
  const sets = new Map<string, RuleSet>();
  if (!fs.existsSync(dir)) return sets;
  const refuse = (file: string, detail: string) => new Error(`rule file ${path.join(dir, file)} refused: ${detail}`);
  for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort()) {
    let set: RuleSet;
    try {
      set = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as RuleSet;
    } catch (e) {
      throw refuse(file, `not JSON (${(e as Error).message})`);
    }
    const problems = checkRuleShape(set);
    if (set?.name !== path.basename(file, '.json')) problems.push({ path: '/name', message: `must be "${path.basename(file, '.json')}", the file's name` });
    if (problems.length) throw refuse(file, problems.map((p) => `${p.path} ${p.message}`).join('; '));
    sets.set(set.name, set);
  }
  // Again with every set known: references across files, and what a set's rules must return.
  for (const set of sets.values()) {
    const problems = checkRuleSet(set, [...sets.values()]);
    if (problems.length) throw refuse(`${set.name}.json`, problems.map((p) => `${p.path} ${p.message}`).join('; '));
  }
  return sets;
}
