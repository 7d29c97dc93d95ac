import mergePatch from 'json-merge-patch';
import type { ContractExtension, FieldDef } from './contract';
import type { FormRules, InlineLabel, JsonLogic, PageSchema } from './pageSchema';

/**
 * The page designer's edits as data: the designer keeps the effective page (base + the hospital's override)
 * and the hospital's contract extension of the page's resource as drafts, and saves the page as the merge
 * patch that turns the base into the draft. Pure, so the browser and the tests share it.
 */
export function overrideOf(base: PageSchema, draft: PageSchema): Record<string, unknown> {
  return patchOf(base, draft);
}

/** The merge patch that turns any base document (a rule set too) into the draft; {} when they are the same. */
export function patchOf(base: object, draft: object): Record<string, unknown> {
  const patch = mergePatch.generate(base, draft);
  return patch && typeof patch === 'object' ? (patch as Record<string, unknown>) : {};
}

/** `list` moved so that the item at `from` lands at `to` (a drag and drop). */
export function move<T>(list: readonly T[], from: number, to: number): T[] {
  const out = [...list];
  const [item] = out.splice(from, 1);
  out.splice(to, 0, item);
  return out;
}

/** The keys of `T` a designer may leave out: those whose value may be undefined (optional ones). */
export type OptionalKey<T> = { [K in keyof T]-?: undefined extends T[K] ? K : never }[keyof T];

/**
 * `item` with `key` set to `value`, or without `key` when the value is empty (undefined, false, ''): a page schema
 * holds only what differs from the defaults, so an unticked box or a cleared input leaves no key behind. Only an
 * optional key can be cleared; the item is copied, never changed.
 */
export function setOrClear<T extends object, K extends OptionalKey<T>>(item: T, key: K, value: T[K] | undefined | false | ''): T {
  const out = { ...item };
  if (value === undefined || value === false || value === '') delete out[key];
  else out[key] = value;
  return out;
}

/** A new field's name: lower-case letters, digits and underscores, starting with a letter (it is a key of `extra`). */
export const FIELD_NAME = /^[a-z][a-z0-9_]{1,47}$/;

/** The extension with `name` added (or replaced, when it is the extension's own). */
export function withField(ext: ContractExtension, name: string, def: FieldDef): ContractExtension {
  return { ...ext, fields: { ...ext.fields, [name]: def } };
}

/** The extension without its own field `name`, nor anything that named it (required, createOnly, rules). */
export function withoutField(ext: ContractExtension, name: string): ContractExtension {
  const { [name]: _gone, ...fields } = ext.fields ?? {};
  const rules = ext.rules ? {
    ...ext.rules,
    visibleIf: drop(ext.rules.visibleIf, name),
    requiredIf: drop(ext.rules.requiredIf, name),
    checks: ext.rules.checks?.filter((c) => c.field !== name),
  } : undefined;
  return tidy({ ...ext, fields, required: ext.required?.filter((f) => f !== name), createOnly: ext.createOnly?.filter((f) => f !== name), rules });
}

/** The extension with `field` always required (`on`) or not; a base requirement is the base's, not the extension's. */
export function withRequired(ext: ContractExtension, field: string, on: boolean): ContractExtension {
  const rest = (ext.required ?? []).filter((f) => f !== field);
  return tidy({ ...ext, required: on ? [...rest, field] : rest });
}

/** The extension with a visibleIf / requiredIf rule of `field` set, or removed when `rule` is undefined. */
export function withRule(ext: ContractExtension, kind: 'visibleIf' | 'requiredIf', field: string, rule: JsonLogic | undefined): ContractExtension {
  const current = { ...(ext.rules?.[kind] ?? {}) };
  if (rule === undefined) delete current[field];
  else current[field] = rule;
  return tidy({ ...ext, rules: { ...ext.rules, [kind]: current } });
}

/** A form check as the designer edits it: the rule may be missing while the administrator builds it. */
export type CheckDraft = Omit<NonNullable<FormRules['checks']>[number], 'rule'> & { rule?: JsonLogic };

/**
 * The extension with its check `index` replaced (`index` = the number of checks: added at the end), or removed
 * when `check` is undefined. A check names the field its message shows on, the json-logic its data must meet,
 * and the message in both languages.
 */
export function withCheck(ext: ContractExtension, index: number, check: CheckDraft | undefined): ContractExtension {
  const checks = [...(ext.rules?.checks ?? [])] as CheckDraft[];
  if (check === undefined) checks.splice(index, 1);
  else checks[Math.min(index, checks.length)] = check;
  return tidy({ ...ext, rules: { ...ext.rules, checks: checks as NonNullable<FormRules['checks']> } });
}

/** What keeps a check from being saved: no condition yet, or its message missing in a language. */
export function checkDraftProblems(ext: ContractExtension): { index: number; problem: 'rule' | 'message' }[] {
  const out: { index: number; problem: 'rule' | 'message' }[] = [];
  for (const [index, c] of ((ext.rules?.checks ?? []) as CheckDraft[]).entries()) {
    if (c.rule === undefined) out.push({ index, problem: 'rule' });
    const message = c.message as InlineLabel | string | undefined;
    const complete = typeof message === 'string' ? !!message.trim() : !!message?.['zh-CN']?.trim() && !!message?.['en-US']?.trim();
    if (!complete) out.push({ index, problem: 'message' });
  }
  return out;
}

function drop<T>(map: Record<string, T> | undefined, key: string): Record<string, T> | undefined {
  if (!map) return map;
  const { [key]: _gone, ...rest } = map;
  return rest;
}

/** Empty parts left out, so that an extension that adds nothing is `{}` (and saves as the base). */
export function tidy(ext: ContractExtension): ContractExtension {
  const out: ContractExtension = {};
  if (ext.fields && Object.keys(ext.fields).length) out.fields = ext.fields;
  if (ext.required?.length) out.required = ext.required;
  if (ext.createOnly?.length) out.createOnly = ext.createOnly;
  const rules: NonNullable<ContractExtension['rules']> = {};
  if (ext.rules?.visibleIf && Object.keys(ext.rules.visibleIf).length) rules.visibleIf = ext.rules.visibleIf;
  if (ext.rules?.requiredIf && Object.keys(ext.rules.requiredIf).length) rules.requiredIf = ext.rules.requiredIf;
  if (ext.rules?.checks?.length) rules.checks = ext.rules.checks;
  if (Object.keys(rules).length) out.rules = rules;
  return out;
}
