import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's schemas/ folder: base page schemas, enums, resources, the meta-schema. */
export const SCHEMAS_DIR = fileURLToPath(new URL('../../../schemas/', import.meta.url));

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
