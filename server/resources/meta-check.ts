import type { ErrorObject } from 'ajv';
import { resourceMetaValidator } from './meta-validator.js';

/**
 * What schemas/meta/resource.schema.json finds wrong with a resource file, one line each (`/columns/age unknown
 * property "filtr"`), so a misspelled key stops the server by name instead of being ignored. Fields share the page
 * meta-schema's definition of a contract field; the rules between keys are checkResource's (definition.ts).
 */
export function resourceMetaProblems(def: unknown): string[] {
  const validate = resourceMetaValidator();
  if (validate(def)) return [];
  return [...new Set((validate.errors ?? []).filter((e) => !['oneOf', 'anyOf', 'if'].includes(e.keyword)).map(describe))];
}

function describe(e: ErrorObject): string {
  const at = e.instancePath || '/';
  if (e.keyword === 'additionalProperties') return `${at} unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'enum') return `${at} ${e.message}: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return `${at} ${e.message ?? e.keyword}`;
}
