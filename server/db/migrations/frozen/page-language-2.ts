/**
 * Stored hospital overrides written in the first page language → the second (migration 0012). The first
 * language repeated labels and types on every page, called a field `prop`, `name` or `model`, and kept a
 * form's accepted values in the page; the second names fields and takes the rest from the resource, whose
 * write contract a hospital extends separately (kind 'resource').
 *
 * An override is a JSON merge patch, so arrays in it are whole (columns, search items, tabs) and convert
 * item by item; a form's patch splits into a layout patch (labels, widgets, order) and a contract extension
 * (fields the hospital added, more required fields, rules). What the second language cannot say is listed in
 * `dropped`, and the migration records it in the version's note: constraints changed on a resource's own
 * fields (an override can no longer loosen or replace what the resource accepts) and rules that would hide
 * a field the resource requires.
 */
type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => !!v && typeof v === 'object' && !Array.isArray(v);

export interface ConversionContext {
  /** The new base page of the alias (its form's field list). */
  basePage?: Json;
  /** The fields the page's resource contract accepts, and what it requires (null: the page has no resource). */
  contract: { fields: Record<string, unknown>; required: string[] } | null;
}

export interface Converted { override: Json; extension?: Json; dropped: string[] }

function column(c: unknown): unknown {
  if (!isObject(c)) return c;
  const { prop, type, fixed, slot: _s, headerSlot: _h, children, ...rest } = c;
  const out: Json = { field: prop, ...rest };
  if (type !== undefined) out.cell = type;
  if (fixed === 'left') out.pinned = true;
  // Grouped columns are gone: a group's children stand as columns of their own.
  if (Array.isArray(children) && children.length) return children.map(column);
  return out;
}

function searchItem(i: unknown): unknown {
  if (!isObject(i)) return i;
  const { name, type, model, status, show, prepend: _p, prependName: _pn, prependOptions: _po, formatFunc: _f, ...rest } = i;
  const out: Json = { field: model ?? name, ...rest };
  if (model !== undefined && model !== name) out.key = name;
  if (type !== undefined) out.widget = type;
  if (status) out.customSearch = true;
  if (show === false) out.drawerOnly = true;
  return out;
}

function condition(c: unknown): unknown {
  if (!isObject(c)) return c;
  const { column: field, child, ...rest } = c;
  return { ...(field !== undefined ? { field } : {}), ...rest, ...(Array.isArray(child) ? { child: child.map(condition) } : {}) };
}

const JSON_TYPES: Record<string, string> = { string: 'string', integer: 'integer', number: 'number', boolean: 'boolean', array: 'array', object: 'json' };
const KEYWORDS = ['default', 'minLength', 'maxLength', 'pattern', 'format', 'minimum', 'maximum', 'minItems', 'maxItems', 'uniqueItems', 'readOnly'];

/** A JSON Schema property → a contract field. */
function fieldOf(schema: Json, ui: Json | undefined): Json {
  const types = Array.isArray(schema.type) ? schema.type : [schema.type];
  const type = types.find((t) => t !== 'null') as string | undefined;
  const out: Json = { type: schema.format === 'date' ? 'date' : JSON_TYPES[type ?? ''] ?? 'string' };
  if (type === 'array' && isObject(schema.items) && typeof schema.items.type === 'string') out.items = schema.items.type;
  for (const k of KEYWORDS) if (schema[k] !== undefined && !(k === 'format' && schema.format === 'date')) out[k] = schema[k];
  const options = isObject(ui?.['ui:options']) ? ui['ui:options'].options : undefined;
  if (options !== undefined) out.options = options;
  else if (Array.isArray(schema.enum)) out.options = schema.enum.filter((v) => v !== null).map((v) => ({ value: v, label: String(v) }));
  if (ui?.['ui:title'] !== undefined) out.label = ui['ui:title'];
  return out;
}

const LAYOUT_KEYS: Record<string, string> = { 'ui:title': 'label', 'ui:widget': 'widget', 'ui:help': 'help', 'ui:placeholder': 'placeholder', 'ui:readonly': 'readonly' };

function formOf(form: Json, ctx: ConversionContext, dropped: string[]): { form: Json; extension?: Json } {
  const schema = isObject(form.schema) ? form.schema : {};
  const properties = isObject(schema.properties) ? schema.properties : {};
  const ui = isObject(form.uiSchema) ? form.uiSchema : {};
  const baseFields = ((ctx.basePage?.form as Json | undefined)?.fields as unknown[] | undefined) ?? [];
  const entry = (f: unknown): Json => (typeof f === 'string' ? { field: f } : { ...(f as Json) });
  const layout: Json[] = baseFields.map(entry);
  const accepted = ctx.contract?.fields ?? {};
  const ext: Json = {};
  const extFields: Json = {};

  for (const [name, prop] of Object.entries(properties)) {
    if (prop === null) { dropped.push(`form field ${name} removed from the form: the resource still accepts it`); continue; }
    if (!isObject(prop)) continue;
    if (ctx.contract && Object.hasOwn(accepted, name)) {
      dropped.push(`form field ${name}: its limits belong to the resource now`);
      continue;
    }
    extFields[name] = fieldOf(prop, isObject(ui[name]) ? ui[name] : undefined);
    if (!layout.some((f) => f.field === name)) layout.push({ field: name });
  }
  for (const [name, u] of Object.entries(ui)) {
    if (!isObject(u)) continue;
    const at = layout.find((f) => f.field === name);
    if (!at) continue;
    for (const [from, to] of Object.entries(LAYOUT_KEYS)) if (u[from] !== undefined) at[to] = u[from];
  }
  const order = Array.isArray(ui['ui:order']) ? (ui['ui:order'] as unknown[]).filter((n): n is string => typeof n === 'string' && n !== '*') : [];
  if (order.length) layout.sort((a, b) => rank(order, a.field) - rank(order, b.field));

  const out: Json = { fields: layout.map((f) => (Object.keys(f).length === 1 ? f.field : f)) };
  if (!ctx.contract) {
    // A form without a resource keeps its own contract in the page: the fields merge into it.
    if (Object.keys(extFields).length) out.contract = { fields: extFields };
    return { form: out };
  }
  if (Object.keys(extFields).length) ext.fields = extFields;
  const required = Array.isArray(schema.required) ? (schema.required as string[]).filter((n) => !ctx.contract!.required.includes(n)) : [];
  if (required.length) ext.required = required;
  const createOnly = Array.isArray(form.createOnly) ? (form.createOnly as string[]).filter((n) => Object.hasOwn(extFields, n)) : [];
  if (createOnly.length) ext.createOnly = createOnly;
  if (isObject(form.rules)) {
    const rules: Json = {};
    const visibleIf = isObject(form.rules.visibleIf) ? { ...form.rules.visibleIf } : undefined;
    for (const name of Object.keys(visibleIf ?? {})) {
      if (Object.hasOwn(accepted, name) && ctx.contract.required.includes(name)) {
        dropped.push(`rule visibleIf.${name}: the resource requires the field, so it cannot be hidden`);
        delete visibleIf![name];
      }
    }
    if (visibleIf && Object.keys(visibleIf).length) rules.visibleIf = visibleIf;
    if (isObject(form.rules.requiredIf)) rules.requiredIf = form.rules.requiredIf;
    if (Array.isArray(form.rules.checks)) rules.checks = form.rules.checks;
    if (Object.keys(rules).length) ext.rules = rules;
  }
  return { form: out, ...(Object.keys(ext).length ? { extension: ext } : {}) };
}

const rank = (order: string[], name: unknown) => {
  const i = order.indexOf(String(name));
  return i < 0 ? order.length : i;
};

export function convertOverride(override: Json, ctx: ConversionContext): Converted {
  const dropped: string[] = [];
  const out: Json = structuredClone(override);
  if (isObject(out.list)) {
    const list = out.list;
    delete list.rowKey;
    if (Array.isArray(list.columns)) list.columns = list.columns.flatMap((c) => column(c) as never);
    if (Array.isArray(list.tabs)) list.tabs = list.tabs.map((t) => (isObject(t) && Array.isArray(t.filter) ? { ...t, filter: t.filter.map(condition) } : t));
  }
  if (isObject(out.search) && Array.isArray(out.search.items)) out.search.items = out.search.items.map(searchItem);
  if (isObject(out.detail) && Array.isArray(out.detail.sections)) {
    out.detail.sections = out.detail.sections.map((s) => (isObject(s) && Array.isArray(s.fields) ? { ...s, fields: s.fields.flatMap((c) => column(c) as never) } : s));
  }
  let extension: Json | undefined;
  if (isObject(out.form)) {
    const { seal: _seal, ...form } = out.form;
    const touched = ['schema', 'uiSchema', 'rules', 'createOnly'].some((k) => k in form);
    if (touched) {
      const converted = formOf(form, ctx, dropped);
      out.form = { ...converted.form, ...(form.source !== undefined ? { source: form.source } : {}) };
      extension = converted.extension;
    } else {
      out.form = form;
    }
  }
  return { override: out, ...(extension ? { extension } : {}), dropped };
}

/** A search-operators rule set's data was `{ type, name }`; it is `{ widget, field }` now. */
export function convertRuleVars(logic: unknown): unknown {
  if (Array.isArray(logic)) return logic.map(convertRuleVars);
  if (!isObject(logic)) return logic;
  return Object.fromEntries(Object.entries(logic).map(([k, v]) => {
    if (k === 'var' && (v === 'type' || v === 'name')) return [k, v === 'type' ? 'widget' : 'field'];
    return [k, convertRuleVars(v)];
  }));
}
