import jsonLogic from 'json-logic-js';
import { resolveLabel, type Translate } from './labels.js';
import { applyBounded, RuleCostError } from './ruleBudget.js';
import type { FormSchema, JsonLogic } from './pageSchema.js';

type Json = Record<string, unknown>;

/**
 * The one implementation of a page form's rules, called by the browser's form (SchemaForm, useRecordForm)
 * and by the server's write validation (server/resources/write-validation.ts): what the form shows
 * (visibleIf, createOnly), requires (schema `required`, requiredIf) and checks (checks with their message),
 * and the field titles those messages name. JSON Schema keywords (type, maxLength …) are ajv's on both
 * sides, run against the schema `formView` returns, so a hidden field is never validated nor required.
 */

/**
 * `name → json-logic` for rules a page refers to as `{ "rule": "<name>" }` (schemas/rules, layered per
 * hospital). Returns the rule with its own references already expanded, or undefined when unknown.
 */
export type RuleResolver = (name: string) => unknown;

export interface RuleOptions {
  resolve?: RuleResolver;
  /**
   * The fields a write carries (server only; the browser sends only what `formView` shows). On update a
   * write that carries a createOnly field (an administrator's password reset through the API) gets the
   * createOnly fields shown, so they are checked as the create form checks them; a field hidden by
   * visibleIf that a write carries is refused (`hidden`).
   */
  sent?: readonly string[];
}

const MAX_REF_DEPTH = 16;

/** `{ "rule": "x" }` anywhere in the logic → the resolver's json-logic; throws when a name is unknown. */
function substitute(logic: unknown, resolve: RuleResolver | undefined, depth = 0): unknown {
  if (depth > MAX_REF_DEPTH) throw new Error('rule references nested too deeply');
  if (Array.isArray(logic)) return logic.map((l) => substitute(l, resolve, depth + 1));
  if (!logic || typeof logic !== 'object') return logic;
  const entries = Object.entries(logic);
  if (entries.length !== 1) return logic; // json-logic reads only one-key objects as operations
  const [op, args] = entries[0];
  if (op === 'rule' && typeof args === 'string') {
    const target = resolve?.(args);
    if (target === undefined) throw new Error(`unknown rule ${args}`);
    return substitute(target, resolve, depth + 1);
  }
  return { [op]: substitute(args, resolve, depth + 1) };
}

/**
 * json-logic truthiness (`jsonLogic.truthy`: `[]` is false, unlike JavaScript's `!!`) of a rule against the
 * data plus `$creating`; undefined when the rule cannot be evaluated (unknown operation or rule name). A rule
 * past the work an evaluation may do throws RuleCostError (src/core/ruleBudget.ts): no answer stands for it.
 */
export function evaluateRule(rule: JsonLogic | undefined, data: Json, creating: boolean, resolve?: RuleResolver): boolean | undefined {
  if (rule === undefined) return true;
  if (typeof rule === 'boolean') return rule;
  try {
    return jsonLogic.truthy(applyBounded(substitute(rule, resolve), { ...data, $creating: creating }));
  } catch (e) {
    if (e instanceof RuleCostError) throw e;
    return undefined;
  }
}

/** A rule that cannot be evaluated does not hold (an action's visibleIf then hides the action). */
export function ruleHolds(rule: JsonLogic | undefined, data: Json, creating: boolean, resolve?: RuleResolver): boolean {
  return evaluateRule(rule, data, creating, resolve) ?? false;
}

export interface FormView {
  /** The JSON Schema rjsf renders and both sides validate: hidden fields removed, `required` adjusted. */
  schema: Json;
  /** The uiSchema with a trailing '*' in ui:order so a field a hospital adds is never an error. */
  uiSchema: Json;
  /** Top-level fields hidden by visibleIf or createOnly. */
  hidden: string[];
}

/**
 * Applies a page form's rules for the current data. `createOnly` fields are shown only when creating
 * (see RuleOptions.sent); `visibleIf` hides a field when its rule is false; `requiredIf` makes a shown
 * field required exactly when its rule holds; a hidden field is never required. A rule that cannot be
 * evaluated makes the form stricter, never looser: the field stays shown, is required, the check fails.
 */
export function formView(form: FormSchema, data: Json, creating: boolean, options: RuleOptions = {}): FormView {
  const base = form.schema as Json & { properties?: Json; required?: string[] };
  const properties: Json = { ...(base.properties ?? {}) };
  const createOnly = form.createOnly ?? [];
  const showCreateOnly = creating || createOnly.some((f) => options.sent?.includes(f));
  const hidden: string[] = [];
  for (const name of Object.keys(properties)) {
    const rule = form.rules?.visibleIf?.[name];
    const visible = rule === undefined || (evaluateRule(rule, data, creating, options.resolve) ?? true);
    if ((!showCreateOnly && createOnly.includes(name)) || !visible) {
      hidden.push(name);
      delete properties[name];
    }
  }
  // On update a createOnly field is never required by the schema's own list (it is not on the edit form).
  const required = new Set((base.required ?? []).filter((n) => Object.hasOwn(properties, n) && (creating || !createOnly.includes(n))));
  for (const [name, rule] of Object.entries(form.rules?.requiredIf ?? {})) {
    if (!Object.hasOwn(properties, name)) continue;
    if (evaluateRule(rule, data, creating, options.resolve) ?? true) required.add(name);
    else required.delete(name);
  }
  const uiSchema: Json = { ...(form.uiSchema ?? {}) };
  const order = uiSchema['ui:order'];
  if (Array.isArray(order) && !order.includes('*')) uiSchema['ui:order'] = [...order, '*'];
  return { schema: { ...base, properties, required: [...required] }, uiSchema, hidden };
}

/** What the rules find wrong with one field; each side words it in its own message files. */
export type RuleProblem =
  | { kind: 'required' }
  /** A failing check, with its message already in the language. */
  | { kind: 'check'; text: string }
  /** A value for a field the form does not show for this data (server only). */
  | { kind: 'hidden' };

export interface ProblemOptions extends RuleOptions {
  lang: string;
  translate?: Translate;
  /** Fields ajv already flagged (rjsf's errorSchema, the server's ajv errors): no second "required" on them. */
  flagged?: (field: string) => boolean;
}

/** Empty for `required`: absent, null, '' or an empty list (nothing chosen in a multi-select). */
export const isEmptyValue = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * The rule problems of a write, by field, beyond ajv's JSON Schema checks of `formView(...).schema`:
 * a required field that is empty (ajv's `required` sees only absent ones), a failing check on a shown
 * field, and (given `sent`) a value sent for a hidden field.
 */
export function formProblems(form: FormSchema, data: Json, creating: boolean, options: ProblemOptions): Record<string, RuleProblem[]> {
  const problems: Record<string, RuleProblem[]> = {};
  const add = (field: string, p: RuleProblem) => (problems[field] ??= []).push(p);
  const view = formView(form, data, creating, options);
  for (const field of (options.sent ?? []).filter((f) => view.hidden.includes(f))) add(field, { kind: 'hidden' });
  for (const field of view.schema.required as string[]) {
    if (isEmptyValue(data[field]) && !options.flagged?.(field)) add(field, { kind: 'required' });
  }
  for (const check of form.rules?.checks ?? []) {
    if (view.hidden.includes(check.field)) continue;
    if (!(evaluateRule(check.rule, data, creating, options.resolve) ?? false)) {
      add(check.field, { kind: 'check', text: resolveLabel(check.message, options.lang, options.translate) });
    }
  }
  return problems;
}

/**
 * The fields of `data` a form does not declare at all (a field it hides is still declared). Where the form
 * is the whole contract of what is stored (a setting's page form), the server refuses these by name.
 */
export function undeclaredFields(form: FormSchema, data: Json): string[] {
  const properties = ((form.schema as { properties?: Json }).properties ?? {});
  return Object.keys(data).filter((field) => !Object.hasOwn(properties, field));
}

/** The title a message names a field by: its uiSchema `ui:title`, else its schema `title`, else its name. */
export function fieldTitle(form: { schema?: object; uiSchema?: object } | undefined, field: string, lang: string, translate?: Translate): string {
  const at = (node: unknown, key: string) => (node && typeof node === 'object' ? (node as Json)[key] : undefined);
  const ui = at(at(form?.uiSchema, field), 'ui:title');
  const schemaTitle = at(at(at(form?.schema, 'properties'), field), 'title');
  return resolveLabel(ui, lang, translate) || (typeof schemaTitle === 'string' ? schemaTitle : '') || field;
}

/**
 * The body the browser sends: only the fields the form shows (hidden and createOnly fields never leave
 * it). Given the stored record, a shown field whose schema allows null and that the user emptied is sent
 * as null, so an update clears it.
 */
export function submittedData(form: FormSchema, data: Json, creating: boolean, options: { resolve?: RuleResolver; original?: Json } = {}): Json {
  const props = (formView(form, data, creating, options).schema.properties ?? {}) as Record<string, { type?: unknown }>;
  const out = Object.fromEntries(Object.entries(data).filter(([k]) => Object.hasOwn(props, k)));
  for (const [name, def] of Object.entries(props)) {
    const nullable = Array.isArray(def.type) && def.type.includes('null');
    const stored = options.original?.[name];
    if (nullable && out[name] === undefined && stored !== undefined && stored !== null) out[name] = null;
  }
  return out;
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
