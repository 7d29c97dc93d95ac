import { createHash } from 'node:crypto';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import jsonLogic from 'json-logic-js';
import type { MessageKey } from '../i18n/messages.js';
import type { Language, Params } from '../i18n/translate.js';
import { AppError } from '../http/errors.js';
import type { PageSchema } from '../modules/schemas/repository.js';

type FieldErrors = Record<string, { key: MessageKey; params?: Params }[]>;
type Label = string | Record<string, string>;

interface FormRules {
  requiredIf?: Record<string, unknown>;
  checks?: { rule: unknown; field: string; message: Label }[];
}
interface FormDef { schema: object; uiSchema?: Record<string, { 'ui:title'?: Label }>; rules?: FormRules; createOnly?: string[] }

// useDefaults fills what the form would have filled (rjsf applies the same defaults in the browser).
const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: true });
addFormats.default(ajv);
const compiled = new Map<string, ValidateFunction>();

const KEYWORDS = ['required', 'minLength', 'maxLength', 'pattern', 'format', 'type', 'enum', 'minItems', 'maxItems', 'uniqueItems', 'minimum', 'maximum'];

/**
 * Compiled validators are cached by schema content, so a hospital's edited form takes effect at once.
 * Writes are checked with the very form schema the browser renders (the hospital's layered one),
 * then with its json-logic rules: required-if and cross-field checks. `creating` is visible to the
 * rules as `$creating`. Errors name the field, in the caller's language, as a 422.
 */
export function validateWrite(page: PageSchema, data: Record<string, unknown>, creating: boolean, lang: Language): void {
  const form = page.form as FormDef | undefined;
  if (!form) return;
  const key = createHash('sha1').update(JSON.stringify(form.schema)).digest('hex');
  let validate = compiled.get(key);
  if (!validate) {
    validate = ajv.compile(form.schema);
    compiled.set(key, validate);
  }
  const title = (field: string) => labelText(form.uiSchema?.[field]?.['ui:title'], lang) ?? field;
  const errors: FieldErrors = {};
  const add = (field: string, k: MessageKey, params: Params = {}) => (errors[field] ??= []).push({ key: k, params: { field: title(field), ...params } });

  if (!validate(data)) for (const e of validate.errors ?? []) addAjvError(e, add);

  const context = { ...data, $creating: creating };
  for (const [field, rule] of Object.entries(form.rules?.requiredIf ?? {})) {
    if (truthy(rule, context) && isEmpty(data[field]) && !errors[field]) add(field, 'validation.required');
  }
  for (const check of form.rules?.checks ?? []) {
    if (!truthy(check.rule, context)) (errors[check.field] ??= []).push({ key: 'validation.custom', params: { text: labelText(check.message, lang) ?? check.field } });
  }
  if (Object.keys(errors).length) throw new AppError(422, 'error.validation', {}, errors);
}

function addAjvError(e: ErrorObject, add: (field: string, key: MessageKey, params?: Params) => void) {
  const p = e.params as Record<string, unknown>;
  const field = e.keyword === 'required' ? String(p.missingProperty) : e.instancePath.replace(/^\//, '').split('/')[0] || 'body';
  const keyword = KEYWORDS.includes(e.keyword) ? e.keyword : 'other';
  add(field, `validation.${keyword}` as MessageKey, { limit: String(p.limit ?? ''), format: String(p.format ?? ''), type: String(p.type ?? '') });
}

const truthy = (rule: unknown, data: object) => {
  try {
    return !!jsonLogic.apply(rule as never, data);
  } catch {
    return false;
  }
};
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

export function labelText(label: Label | undefined, lang: Language): string | undefined {
  if (label === undefined) return undefined;
  return typeof label === 'string' ? label : label[lang] ?? Object.values(label)[0];
}
