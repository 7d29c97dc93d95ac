import fs from 'node:fs';
import path from 'node:path';
import { resourceContract, type ResourceWrites } from '../../src/core/contract';
import type { LoadedSchema, PageSchema, ResourceInfo } from '../../src/core/pageSchema';
import { publicFields } from '../../src/core/resolvePage';

/**
 * The resources of schemas/resources as the server describes them to a page (GET /api/schemas/{alias}):
 * fields with labels and types, and the base write contract. For tests that render or check pages offline.
 */
type ResourceFile = ResourceWrites & {
  name: string; route: string; permissions: Record<string, string>;
  virtual?: Record<string, never>; computed?: Record<string, never>; inputs?: Record<string, never>;
};

const DIR = path.resolve('schemas/resources');
export const resourceFiles: Record<string, ResourceFile> = Object.fromEntries(fs.readdirSync(DIR).filter((f) => f.endsWith('.json'))
  .map((f) => JSON.parse(fs.readFileSync(path.join(DIR, f), 'utf8')) as ResourceFile).map((r) => [r.name, r]));

export function resourceInfo(name: string): ResourceInfo | null {
  const def = resourceFiles[name];
  if (!def) return null;
  const fields = publicFields({ ...def.computed, ...def.inputs, ...def.virtual, ...def.columns } as never);
  const permissions = { create: '', update: '', delete: '', ...def.permissions } as ResourceInfo['permissions'];
  return { name, route: def.route, rowKey: 'id', fields, contract: resourceContract(def), permissions };
}

/** A page as GET /api/schemas/{alias} answers it, with no hospital override. */
export const loadedPage = (page: PageSchema): LoadedSchema => ({ alias: page.alias, version: 0, schema: page, resource: page.resource ? resourceInfo(page.resource) : null });
