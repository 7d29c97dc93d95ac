import { Ajv, type ErrorObject } from 'ajv';
import { loadMetaSchema } from './repository.js';

export interface SchemaProblem { path: string; message: string }

let validate: ReturnType<Ajv['compile']> | undefined;

/** Checks a page schema against schemas/meta/page.schema.json; returns the problems, JSON-path first. */
export function checkPageSchema(page: unknown): SchemaProblem[] {
  validate ??= new Ajv({ allErrors: true, strict: false }).compile(loadMetaSchema());
  if (validate(page)) return [];
  return (validate.errors ?? []).filter(meaningful).map((e) => ({ path: e.instancePath || '/', message: describe(e) }));
}

/** oneOf/if wrappers repeat what the inner errors already say. */
const meaningful = (e: ErrorObject) => !['oneOf', 'if', 'anyOf'].includes(e.keyword);

function describe(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'required') return `missing "${(e.params as { missingProperty: string }).missingProperty}"`;
  if (e.keyword === 'enum') return `${e.message}: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return e.message ?? e.keyword;
}
