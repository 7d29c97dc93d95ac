import type { CellKind, FormRules, JsonLogic, Label, SearchOption } from './pageSchema.js';

/**
 * What a resource accepts in a write: its fields with their types and limits, which are required,
 * which only at creation, and the json-logic rules between them (visibleIf, requiredIf, checks). It
 * belongs to the resource (schemas/resources), not to a page: every form that writes the resource shows
 * a layout over it, and the server checks every write against it, so no page, and no hospital's page
 * override, can accept what the resource refuses.
 *
 * A hospital extends it (`ContractExtension`, stored per hospital with versions): new fields (kept in the
 * resource's `extra` column), more required fields, more rules. Extensions only add: `layerContract`
 * joins them so that a base rule still holds whatever the extension says.
 */
export type FieldType = 'string' | 'integer' | 'number' | 'boolean' | 'date' | 'datetime' | 'json' | 'array';

export interface FieldDef {
  type: FieldType;
  label?: Label;
  /** An enum name (schemas/enums; its values are the only ones accepted), `resource:<name>`, or inline options. */
  options?: string | SearchOption[];
  /** How lists draw it when not the default for its type. */
  cell?: CellKind;
  /** An array's element type. */
  items?: 'string' | 'integer' | 'number';
  /** Whether null is accepted. Default: yes, unless the field is required. */
  nullable?: boolean;
  default?: unknown;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  format?: 'date' | 'email' | 'iso-date-time' | 'uri';
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  uniqueItems?: boolean;
  readOnly?: boolean;
  /** Arrives sealed with the server's public key (passwords, ARCHITECTURE §6) and is opened before it is checked. */
  sealed?: boolean;
}

export interface Contract {
  fields: Record<string, FieldDef>;
  required?: string[];
  /** Fields a write carries only when creating (a new user's password). */
  createOnly?: string[];
  rules?: FormRules;
  /** Fields a hospital's extension added (stored in `extra`). */
  extended?: string[];
}

export interface ContractExtension {
  fields?: Record<string, FieldDef>;
  required?: string[];
  /** Of the extension's own fields only. */
  createOnly?: string[];
  rules?: FormRules;
}

/** What a resource file (schemas/resources) says about writes, as far as the contract reads it. */
export interface ResourceWrites {
  columns: Record<string, Omit<FieldDef, 'type'> & { type: string; readable?: boolean; writable?: boolean; filter?: boolean; sort?: boolean; search?: boolean; unique?: boolean }>;
  inputs?: Record<string, FieldDef>;
  write?: Pick<Contract, 'required' | 'createOnly' | 'rules'>;
}

/** A resource's base contract: its writable columns and its inputs, with its write rules. */
export function resourceContract(def: ResourceWrites): Contract {
  const columns = Object.entries(def.columns).filter(([n, c]) => c.writable !== false && c.readable !== false && n !== 'id')
    .map(([n, { filter: _f, sort: _s, search: _q, unique: _u, readable: _r, writable: _w, ...field }]) => [n, field as FieldDef] as const);
  return { fields: Object.fromEntries([...columns, ...Object.entries(def.inputs ?? {})]), ...def.write };
}

type Json = Record<string, unknown>;
type Enums = Record<string, { value: unknown }[]>;

const JSON_TYPE: Record<FieldType, string | undefined> = {
  string: 'string', date: 'string', datetime: 'string', integer: 'integer', number: 'number', boolean: 'boolean', array: 'array', json: undefined,
};
const KEYWORDS = ['default', 'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'minItems', 'maxItems', 'uniqueItems', 'readOnly'] as const;

/** The values an enum-backed field accepts, when the enums are known (the server knows them; the browser's select offers only them). */
function allowedValues(options: FieldDef['options'], enums?: Enums): unknown[] | undefined {
  if (Array.isArray(options)) return options.map((o) => o.value);
  if (typeof options === 'string' && !options.startsWith('resource:')) return enums?.[options]?.map((o) => o.value);
  return undefined;
}

/** One field as JSON Schema (for ajv on both sides and for rjsf). */
export function fieldJsonSchema(def: FieldDef, required: boolean, enums?: Enums): Json {
  const type = JSON_TYPE[def.type];
  const nullable = def.type !== 'array' && (def.nullable ?? !required);
  const out: Json = {};
  if (type) out.type = nullable ? [type, 'null'] : type;
  if (def.type === 'array') out.items = def.items ? { type: def.items } : {};
  for (const k of KEYWORDS) if (def[k] !== undefined) out[k] = def[k];
  const values = allowedValues(def.options, enums);
  if (values && def.type !== 'array') out.enum = nullable ? [...values, null] : values;
  else if (values && def.type === 'array') out.items = { ...(out.items as Json), enum: values };
  return out;
}

/** The contract as one JSON Schema object over all its fields. */
export function contractJsonSchema(contract: Contract, enums?: Enums): Json {
  const required = contract.required ?? [];
  const properties = Object.fromEntries(Object.entries(contract.fields).map(([name, def]) => [name, fieldJsonSchema(def, required.includes(name), enums)]));
  return { type: 'object', required: [...required], properties };
}

const or = (a: JsonLogic | undefined, b: JsonLogic | undefined): JsonLogic | undefined => (a === undefined ? b : b === undefined ? a : { or: [a, b] });
const and = (a: JsonLogic | undefined, b: JsonLogic | undefined): JsonLogic | undefined => (a === undefined ? b : b === undefined ? a : { and: [a, b] });

function joinRules(rules: Record<string, JsonLogic> | undefined, more: Record<string, JsonLogic> | undefined, join: typeof or) {
  const out: Record<string, JsonLogic> = { ...(rules ?? {}) };
  for (const [field, rule] of Object.entries(more ?? {})) out[field] = join(out[field], rule) as JsonLogic;
  return out;
}

/**
 * The base contract with a hospital's extension: its new fields added (never replacing a base field),
 * required fields joined, a field required when either's requiredIf holds, shown when both visibleIfs
 * hold, and every check of both applied. Whatever the extension says, a base rule still holds.
 */
export function layerContract(base: Contract, ext: ContractExtension | undefined): Contract {
  if (!ext || !Object.keys(ext).length) return base;
  const added = Object.entries(ext.fields ?? {}).filter(([name]) => !Object.hasOwn(base.fields, name));
  return {
    ...base,
    fields: { ...base.fields, ...Object.fromEntries(added) },
    required: [...new Set([...(base.required ?? []), ...(ext.required ?? [])])],
    createOnly: [...new Set([...(base.createOnly ?? []), ...(ext.createOnly ?? []).filter((f) => added.some(([name]) => name === f))])],
    rules: {
      visibleIf: joinRules(base.rules?.visibleIf, ext.rules?.visibleIf, and),
      requiredIf: joinRules(base.rules?.requiredIf, ext.rules?.requiredIf, or),
      checks: [...(base.rules?.checks ?? []), ...(ext.rules?.checks ?? [])],
    },
    extended: [...(base.extended ?? []), ...added.map(([name]) => name)],
  };
}

/**
 * The contract without its empty parts (`[]`, `{}`), so that two versions compare by what they say: `layerContract`
 * writes every part, the base only those it has, and a diff of the two would otherwise show the empty ones as changes.
 */
export function withoutEmptyParts(contract: Contract): Contract {
  const empty = (v: unknown) => v === undefined || (Array.isArray(v) ? !v.length : typeof v === 'object' && v !== null && !Object.keys(v).length);
  const rules = Object.fromEntries(Object.entries(contract.rules ?? {}).filter(([, v]) => !empty(v)));
  const out = Object.fromEntries(Object.entries({ ...contract, rules }).filter(([, v]) => !empty(v)));
  return out as unknown as Contract;
}

export interface ContractProblem { path: string; message: string }

/**
 * What a hospital's extension may not do: redefine a base field, name a field neither has, or hide
 * (visibleIf) a field the base requires, since a hidden field is never required and that would loosen it.
 */
export function checkExtension(base: Contract, ext: ContractExtension): ContractProblem[] {
  const problems: ContractProblem[] = [];
  const own = ext.fields ?? {};
  for (const name of Object.keys(own)) {
    if (Object.hasOwn(base.fields, name)) problems.push({ path: `/fields/${name}`, message: 'is a field of the resource already; an extension only adds fields' });
    else if (!/^[a-z][a-z0-9_]{0,63}$/.test(name)) problems.push({ path: `/fields/${name}`, message: 'must be a lower-case name (a-z, 0-9, _)' });
  }
  const known = (f: string) => Object.hasOwn(base.fields, f) || Object.hasOwn(own, f);
  for (const f of ext.required ?? []) if (!known(f)) problems.push({ path: '/required', message: `names an unknown field "${f}"` });
  for (const f of ext.createOnly ?? []) if (!Object.hasOwn(own, f)) problems.push({ path: '/createOnly', message: `"${f}" is not a field of the extension; only its own fields can be createOnly` });
  for (const kind of ['requiredIf', 'visibleIf'] as const) {
    for (const f of Object.keys(ext.rules?.[kind] ?? {})) if (!known(f)) problems.push({ path: `/rules/${kind}/${f}`, message: 'names an unknown field' });
  }
  for (const [i, c] of (ext.rules?.checks ?? []).entries()) if (!known(c.field)) problems.push({ path: `/rules/checks/${i}`, message: `names an unknown field "${c.field}"` });
  const baseRequired = new Set([...(base.required ?? []), ...Object.keys(base.rules?.requiredIf ?? {}), ...(base.createOnly ?? [])]);
  for (const f of Object.keys(ext.rules?.visibleIf ?? {})) {
    if (baseRequired.has(f)) problems.push({ path: `/rules/visibleIf/${f}`, message: 'the resource requires this field; an extension cannot hide it' });
  }
  return problems;
}

/**
 * A form's own contract (the registration form's, which writes cases through a command of its own) with the
 * hospital's extension of the resource it writes (`form.extends`): the fields the administrator added to the
 * resource and the rules, required fields and checks about fields this form has. What concerns only fields
 * of the resource the form does not carry is left out, so an extension of the resource never demands a
 * field this form cannot show.
 */
export function layerOwnContract(own: Contract, ext: ContractExtension | undefined): Contract {
  if (!ext) return own;
  const has = (f: string) => Object.hasOwn(own.fields, f) || Object.hasOwn(ext.fields ?? {}, f);
  const pick = (rules: Record<string, JsonLogic> | undefined) => (rules ? Object.fromEntries(Object.entries(rules).filter(([f]) => has(f))) : undefined);
  return layerContract(own, {
    ...(ext.fields ? { fields: ext.fields } : {}),
    ...(ext.required ? { required: ext.required.filter(has) } : {}),
    ...(ext.createOnly ? { createOnly: ext.createOnly } : {}),
    ...(ext.rules ? { rules: { visibleIf: pick(ext.rules.visibleIf), requiredIf: pick(ext.rules.requiredIf), checks: (ext.rules.checks ?? []).filter((c) => has(c.field)) } } : {}),
  });
}
