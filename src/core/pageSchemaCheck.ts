import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import metaSchema from '../../schemas/meta/page.schema.json';

/** One reason a page schema is refused: where (a JSON pointer) and what. */
export interface SchemaProblem { path: string; message: string }

let validate: ValidateFunction | undefined;

/**
 * Checks a page schema against schemas/meta/page.schema.json, the same check the server makes before
 * saving an override (server/modules/schemas/meta-validator.ts), so the schema editor can show the
 * problems while the administrator types.
 */
export function checkPageSchema(page: unknown): SchemaProblem[] {
  validate ??= new Ajv({ allErrors: true, strict: false }).compile(metaSchema);
  if (validate(page)) return [];
  const seen = new Set<string>();
  return (validate.errors ?? []).filter(meaningful).map((e) => ({ path: e.instancePath || '/', message: describe(e) }))
    .filter((p) => (seen.has(`${p.path} ${p.message}`) ? false : (seen.add(`${p.path} ${p.message}`), true)));
}

/** oneOf/if wrappers repeat what the inner errors already say. */
const meaningful = (e: ErrorObject) => !['oneOf', 'if', 'anyOf'].includes(e.keyword);

function describe(e: ErrorObject): string {
  if (e.keyword === 'additionalProperties') return `unknown property "${(e.params as { additionalProperty: string }).additionalProperty}"`;
  if (e.keyword === 'required') return `missing "${(e.params as { missingProperty: string }).missingProperty}"`;
  if (e.keyword === 'enum') return `${e.message}: ${(e.params as { allowedValues: unknown[] }).allowedValues.map((v) => JSON.stringify(v)).join(', ')}`;
  return e.message ?? e.keyword;
}
