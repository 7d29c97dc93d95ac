import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import metaSchema from '../../schemas/meta/page.schema.json';
import { checkExtension, type Contract, type ContractExtension } from './contract.js';
import { logicCostProblems } from './ruleCost.js';
import { logicProblems } from './rules.js';
import { schemaLogic } from './schemaLogic.js';

/** One reason a page schema is refused: where (a JSON pointer) and what. */
export interface SchemaProblem { path: string; message: string }

let validate: ValidateFunction | undefined;
let validateExtension: ValidateFunction | undefined;

/**
 * Checks a page schema against schemas/meta/page.schema.json, the same check the server makes before
 * saving an override (server/modules/schemas/meta-validator.ts), so the schema editor can show the
 * problems while the administrator types. Its json-logic must also use only the operations a rule set may
 * (RULE_OPERATIONS: no `log`) and not cost visibly more than an evaluation may do.
 */
export function checkPageSchema(page: unknown): SchemaProblem[] {
  validate ??= new Ajv({ allErrors: true, strict: false }).compile(metaSchema);
  if (validate(page)) return logicOfSchemaProblems(page);
  return problemsOf(validate.errors);
}

/** A hospital's contract extension: the meta-schema's `contractExtension`, then what it may not do to the base (checkExtension). */
export function checkContractExtension(ext: unknown, base: Contract): SchemaProblem[] {
  if (!validateExtension) {
    const ajv = new Ajv({ allErrors: true, strict: false });
    ajv.addSchema(metaSchema);
    validateExtension = ajv.compile({ $ref: `${metaSchema.$id}#/definitions/contractExtension` });
  }
  if (!validateExtension(ext)) return problemsOf(validateExtension.errors);
  const logic = logicOfSchemaProblems(ext);
  return logic.length ? logic : checkExtension(base, ext as ContractExtension);
}

/** Each piece of json-logic the document carries: its operations and references, then (when well-formed) its cost. */
function logicOfSchemaProblems(doc: unknown): SchemaProblem[] {
  return schemaLogic(doc).flatMap(({ logic, path }) => {
    const structure = logicProblems(logic, path);
    return structure.length ? structure : logicCostProblems(logic, path);
  });
}

function problemsOf(errors: ErrorObject[] | null | undefined): SchemaProblem[] {
  const seen = new Set<string>();
  return (errors ?? []).filter(meaningful).map((e) => ({ path: e.instancePath || '/', message: describe(e) }))
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
