import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { fieldTitle, formProblems, formView, undeclaredFields, type RuleResolver } from '../../src/core/formRules.js';
import type { FormSchema } from '../../src/core/pageSchema.js';
import type { MessageKey } from '../i18n/messages.js';
import type { Language, Params } from '../i18n/translate.js';
import { AppError } from '../http/errors.js';

type FieldErrors = Record<string, { key: MessageKey; params?: Params }[]>;

// useDefaults fills what the form would have filled (rjsf applies the same defaults in the browser).
// coerceTypes: a select sends ids as text and an emptied one '' (null where the field takes null); the
// contract checks every field a write carries, so values are brought to its types before they are stored.
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: true, useDefaults: true });
addFormats.default(ajv);
// Keyed by the content of the schema the rules left, so a hospital's edited form takes effect at once;
// bounded, since each combination of hidden fields is a schema of its own.
const compiled = new Map<string, ValidateFunction>();
const MAX_COMPILED = 500;

const KEYWORDS = ['required', 'minLength', 'maxLength', 'pattern', 'format', 'type', 'enum', 'minItems', 'maxItems', 'uniqueItems', 'minimum', 'maximum'];

export interface WriteOptions {
  /** The fields the request carried (an update's patch); default: every field of `data`. */
  sent?: readonly string[];
  /** Named json-logic rules the form refers to as `{ "rule": "<name>" }`. */
  resolve?: RuleResolver;
  /**
   * The form is the whole of what is stored (a setting's page form): a field it does not declare is refused
   * by name rather than kept. Resource writes leave this off; write-fields.ts checks their fields.
   */
  closed?: boolean;
}

/**
 * Checks a write with a contract's form (src/core/resolvePage `contractForm`): the rules the browser's form
 * applies (src/core/formRules) over every field the contract accepts. The JSON Schema as the rules leave it
 * for this data (hidden fields out, `required` adjusted) with
 * ajv, then the rule problems: empty required fields, failing checks, and a value sent for a field the form
 * hides, which is refused by name rather than dropped (no part of an accepted write is lost). `data` is the
 * record as it would be stored (an update's current row plus its patch). Errors name the field, in the
 * caller's language, as a 422.
 */
export function validateWrite(form: FormSchema, data: Record<string, unknown>, creating: boolean, lang: Language, options: WriteOptions = {}): void {
  const rules = { sent: options.sent ?? Object.keys(data), resolve: options.resolve };
  const view = formView(form, data, creating, rules);
  const validate = compile(view.schema);
  const title = (field: string) => fieldTitle(form, field, lang);
  const errors: FieldErrors = {};
  const add = (field: string, k: MessageKey, params: Params = {}) => (errors[field] ??= []).push({ key: k, params: { field: title(field), ...params } });

  if (options.closed) for (const field of undeclaredFields(form, data)) add(field, 'validation.unknown_field');
  if (!validate(data)) for (const e of validate.errors ?? []) addAjvError(e, add);

  const problems = formProblems(form, data, creating, { ...rules, lang, flagged: (field) => !!errors[field] });
  for (const [field, list] of Object.entries(problems)) {
    for (const p of list) {
      if (p.kind === 'required') add(field, 'validation.required');
      else if (p.kind === 'hidden') add(field, 'validation.hidden_field');
      else (errors[field] ??= []).push({ key: 'validation.custom', params: { text: p.text || field } });
    }
  }
  if (Object.keys(errors).length) throw new AppError(422, 'error.validation', {}, errors);
}

function compile(schema: object): ValidateFunction {
  const key = createHash('sha1').update(JSON.stringify(schema)).digest('hex');
  let validate = compiled.get(key);
  if (!validate) {
    if (compiled.size >= MAX_COMPILED) compiled.clear();
    validate = ajv.compile(schema);
    compiled.set(key, validate);
  }
  return validate;
}

function addAjvError(e: ErrorObject, add: (field: string, key: MessageKey, params?: Params) => void) {
  const p = e.params as Record<string, unknown>;
  const field = e.keyword === 'required' ? String(p.missingProperty) : e.instancePath.replace(/^\//, '').split('/')[0] || 'body';
  const keyword = KEYWORDS.includes(e.keyword) ? e.keyword : 'other';
  add(field, `validation.${keyword}` as MessageKey, { limit: String(p.limit ?? ''), format: String(p.format ?? ''), type: String(p.type ?? '') });
}
