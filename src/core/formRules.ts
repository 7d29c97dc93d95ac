import jsonLogic from 'json-logic-js';
import { resolveLabel, type Translate } from './labels.js';
import type { FormSchema, JsonLogic } from './pageSchema.js';

type Json = Record<string, unknown>;

/** json-logic truthiness of a rule against the form data plus `$creating` (spec: rules of the page schema). */
export function ruleHolds(rule: JsonLogic | undefined, data: Json, creating: boolean): boolean {
  if (rule === undefined) return true;
  if (typeof rule === 'boolean') return rule;
  try {
    return jsonLogic.truthy(jsonLogic.apply(rule as never, { ...data, $creating: creating }));
  } catch {
    // A rule that cannot be evaluated hides nothing and requires nothing (spec §5: unparsable rules fall back to empty).
    return false;
  }
}

export interface FormView {
  /** The JSON Schema rjsf renders: hidden fields removed, `required` adjusted. */
  schema: Json;
  /** The uiSchema with a trailing '*' in ui:order so a field a hospital adds is never an error. */
  uiSchema: Json;
  /** Top-level fields hidden by visibleIf or createOnly. */
  hidden: string[];
}

/**
 * Applies a page form's rules for the current data: `createOnly` fields only when creating,
 * `visibleIf` hides a field when its rule is false, `requiredIf` makes a field required exactly
 * when its rule holds (evaluated with the data plus `$creating`).
 */
export function formView(form: FormSchema, data: Json, creating: boolean): FormView {
  const base = form.schema as Json & { properties?: Json; required?: string[] };
  const properties: Json = { ...(base.properties ?? {}) };
  const hidden: string[] = [];
  for (const name of Object.keys(properties)) {
    const createOnlyHidden = !creating && form.createOnly?.includes(name);
    const rule = form.rules?.visibleIf?.[name];
    if (createOnlyHidden || (rule !== undefined && !ruleHolds(rule, data, creating))) {
      hidden.push(name);
      delete properties[name];
    }
  }
  const required = new Set((base.required ?? []).filter((n) => !hidden.includes(n)));
  for (const [name, rule] of Object.entries(form.rules?.requiredIf ?? {})) {
    if (hidden.includes(name) || !(name in properties)) continue;
    if (ruleHolds(rule, data, creating)) required.add(name);
    else required.delete(name);
  }
  const uiSchema: Json = { ...(form.uiSchema ?? {}) };
  const order = uiSchema['ui:order'];
  if (Array.isArray(order) && !order.includes('*')) uiSchema['ui:order'] = [...order, '*'];
  return { schema: { ...base, properties, required: [...required] }, uiSchema, hidden };
}

/** Cross-field checks: every failing rule puts its message on its field. */
export function formCheckErrors(form: FormSchema, data: Json, creating: boolean, lang: string, translate?: Translate): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  const { hidden } = formView(form, data, creating);
  for (const check of form.rules?.checks ?? []) {
    if (hidden.includes(check.field)) continue;
    if (!ruleHolds(check.rule, data, creating)) (errors[check.field] ??= []).push(resolveLabel(check.message, lang, translate));
  }
  return errors;
}

/** The body to send: only the fields the form shows (hidden and createOnly fields never leave the browser). */
export function submittedData(form: FormSchema, data: Json, creating: boolean): Json {
  const { schema } = formView(form, data, creating);
  const shown = Object.keys((schema.properties as Json) ?? {});
  return Object.fromEntries(Object.entries(data).filter(([k]) => shown.includes(k)));
}

/**
 * Server 422 `errors: { field: [text] }` → rjsf extraErrors `{ field: { __errors: [text] } }`.
 * Dotted paths (`items.0.name`) become nested error objects.
 */
export function serverErrorsToErrorSchema(errors: unknown): Json {
  const out: Json = {};
  if (!errors || typeof errors !== 'object' || Array.isArray(errors)) return out;
  for (const [path, texts] of Object.entries(errors as Record<string, unknown>)) {
    const list = (Array.isArray(texts) ? texts : [texts]).filter((t) => t !== undefined && t !== null).map(String);
    let node = out;
    for (const part of path.split('.').filter(Boolean)) node = (node[part] ??= {}) as Json;
    node.__errors = [...((node.__errors as string[]) ?? []), ...list];
  }
  return out;
}
