import { Ajv, type ValidateFunction } from 'ajv';
import pageMeta from '../../schemas/meta/page.schema.json';
import resourceMeta from '../../schemas/meta/resource.schema.json';

/**
 * ajv compiling schemas/meta/resource.schema.json (with the page meta-schema it refers to). `source`: keep the
 * generated code, for ajv's standalone output.
 */
export function buildResourceMetaValidator(source = false): { ajv: Ajv; validate: ValidateFunction } {
  const ajv = new Ajv({ allErrors: true, strict: false, code: { source, esm: true } });
  ajv.addSchema(pageMeta);
  return { ajv, validate: ajv.compile(resourceMeta) };
}

let compiled: ValidateFunction | undefined;

/**
 * The resource meta-schema's validator, compiled on first use. `npm run build` replaces this module in the compiled
 * server by ajv's standalone code of the same validator (scripts/build-server.ts): compiling it takes about half a
 * second of CPU, which every process of a start (setup, each worker) would otherwise spend.
 */
export const resourceMetaValidator = (): ValidateFunction => (compiled ??= buildResourceMetaValidator().validate);
