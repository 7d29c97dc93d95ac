import { contractJsonSchema, type Contract, type FieldDef, type FieldType } from './contract.js';
import type { FilterCondition } from './filters.js';
import { resolveLabel } from './labels.js';
import type {
  CellKind, Column, ColumnSchema, FormFieldLayout, FormLayout, FormSchema, FormWidget, LoadedSchema, ResolvedPage, ResolvedSchema,
  ResourceField, ResourceInfo, SearchField, SearchItem, SearchWidget, TabCondition,
} from './pageSchema.js';

/**
 * A page as written (fields named, the rest left to the resource) → the page the renderers draw: each
 * column, search item and detail field with its label, cell or widget and options from the resource
 * field, and the form compiled from its layout and the resource's contract into the JSON Schema and
 * uiSchema rjsf reads. Pure: the browser runs it on every loaded schema; the page tests run it too.
 */

type Fields = Record<string, ResourceField | FieldDef | undefined>;

const CELL_OF: Record<FieldType, CellKind> = {
  string: 'text', integer: 'number', number: 'number', boolean: 'boolean', date: 'date', datetime: 'datetime', json: 'json', array: 'tags',
};

export function defaultCell(def: Pick<FieldDef, 'type' | 'options' | 'cell'> | undefined): CellKind {
  if (!def) return 'text';
  if (def.cell) return def.cell;
  if (def.options !== undefined) return 'enum';
  return CELL_OF[def.type] ?? 'text';
}

export function defaultWidget(def: Pick<FieldDef, 'type' | 'options'> | undefined): SearchWidget {
  if (!def) return 'input';
  if (def.options !== undefined) return def.type === 'array' ? 'multiselect' : 'select';
  switch (def.type) {
    case 'integer': case 'number': return 'number';
    case 'date': return 'daterange';
    case 'datetime': return 'datetimerange';
    case 'boolean': return 'boolean';
    default: return 'input';
  }
}

export function resolveColumn(column: ColumnSchema, fields: Fields): Column {
  const def = fields[column.field];
  const options = column.options ?? (typeof def?.options === 'string' ? def.options : undefined);
  const cell = column.cell ?? defaultCell(def && { ...def, options: options ?? def.options });
  return {
    ...column,
    label: column.label ?? def?.label ?? column.field,
    cell,
    ...(options !== undefined ? { options } : {}),
    ...(Array.isArray(def?.options) && column.options === undefined ? { choices: def.options } : {}),
    sortable: column.sortable ?? !!(def && 'sort' in def && def.sort),
  };
}

export function resolveSearchItem(item: SearchItem, fields: Fields): SearchField {
  const def = fields[item.field];
  const options = item.options ?? def?.options;
  return {
    ...item,
    key: item.key ?? item.field,
    label: item.label ?? def?.label ?? item.field,
    widget: item.widget ?? defaultWidget(def && { type: def.type, options }),
    ...(options !== undefined ? { options } : {}),
  };
}

/**
 * A tab's conditions as the wire carries them (spec §7 says `column` where pages say `field`). An `ago` becomes the
 * ISO time that long before `now`, rounded down to the minute: the list and count requests built apart (and the
 * list sent ahead by SchemaPage) stay the same request within a minute.
 */
export function tabFilterToWire(conditions: readonly TabCondition[], now = Date.now()): FilterCondition[] {
  const minute = Math.floor(now / 60_000) * 60_000;
  return conditions.map(({ field, child, ago, ...rest }) => ({
    ...rest,
    ...(field !== undefined ? { column: field } : {}),
    ...(ago ? { value: new Date(minute - ago.hours * 3_600_000).toISOString() } : {}),
    ...(child ? { child: tabFilterToWire(child, now) } : {}),
  }) as FilterCondition);
}

const WIDGET_OF: Partial<Record<FormWidget, string>> = { text: 'text' };

function uiWidget(layout: FormFieldLayout, def: FieldDef | undefined): string | undefined {
  if (layout.widget) return WIDGET_OF[layout.widget] ?? layout.widget;
  const options = layout.options ?? def?.options;
  if (options !== undefined) return def?.type === 'array' ? 'multiselect' : 'select';
  return undefined;
}

const asLayout = (f: string | FormFieldLayout): FormFieldLayout => (typeof f === 'string' ? { field: f } : f);

/**
 * A form's layout over a contract → the form rjsf draws and the rules of src/core/formRules apply:
 * the contract's fields the layout shows (and any a hospital's extension added, after them), in order,
 * titled and with their widgets; `required`, `createOnly` and the rules of the contract.
 */
export function compileForm(layout: Pick<FormLayout, 'fields' | 'source'>, contract: Contract, enums?: Record<string, { value: unknown }[]>): FormSchema {
  const shown = layout.fields.map(asLayout).filter((f) => Object.hasOwn(contract.fields, f.field));
  for (const name of contract.extended ?? []) if (!shown.some((f) => f.field === name)) shown.push({ field: name });
  const names = shown.map((f) => f.field);
  const all = contractJsonSchema(contract, enums) as { properties: Record<string, unknown>; required: string[] };
  const uiSchema: Record<string, unknown> = { 'ui:order': [...names, '*'] };
  for (const f of shown) {
    const def = contract.fields[f.field];
    const ui: Record<string, unknown> = {};
    const title = f.label ?? def?.label;
    if (title !== undefined) ui['ui:title'] = title;
    const widget = uiWidget(f, def);
    if (widget) ui['ui:widget'] = widget;
    const options = f.options ?? def?.options;
    if (options !== undefined) ui['ui:options'] = { options };
    if (f.help !== undefined) ui['ui:help'] = f.help;
    if (f.placeholder !== undefined) ui['ui:placeholder'] = f.placeholder;
    if (f.readonly) ui['ui:readonly'] = true;
    uiSchema[f.field] = ui;
  }
  // A widget that lays out rows of its own (a list of specimens) takes the form's whole width.
  const wide = shown.filter((f) => f.widget === 'specimens').map((f) => f.field);
  if (wide.length) uiSchema['ui:options'] = { wide };
  const onForm = (n: string) => names.includes(n);
  const pick = <T>(rec: Record<string, T> | undefined) => Object.fromEntries(Object.entries(rec ?? {}).filter(([n]) => onForm(n)));
  const rules = contract.rules;
  return {
    schema: { type: 'object', required: all.required.filter(onForm), properties: Object.fromEntries(names.map((n) => [n, all.properties[n]])) },
    uiSchema,
    ...(contract.createOnly?.length ? { createOnly: contract.createOnly.filter(onForm) } : {}),
    ...(rules ? { rules: { visibleIf: pick(rules.visibleIf), requiredIf: pick(rules.requiredIf), checks: (rules.checks ?? []).filter((c) => onForm(c.field)) } } : {}),
    ...(names.some((n) => contract.fields[n]?.sealed) ? { seal: names.filter((n) => contract.fields[n]?.sealed) } : {}),
    ...(layout.source ? { source: layout.source } : {}),
  };
}

/** The form a contract checks writes with: every field, in the contract's order; with the enums, their values are the only ones accepted. */
export const contractForm = (contract: Contract, enums?: Record<string, { value: unknown }[]>): FormSchema =>
  compileForm({ fields: Object.keys(contract.fields) }, contract, enums);

export function resolvePage(loaded: LoadedSchema): ResolvedSchema {
  const { schema: page, resource } = loaded;
  const fields: Fields = resource?.fields ?? {};
  const contract: Contract | undefined = loaded.formContract ?? page.form?.contract ?? resource?.contract;
  // Every field a base page names exists (tests/unit/page-resources.test.ts); a hospital's override may still name
  // one of its own fields that was deleted since. That column is left out, not shown as a code over empty cells.
  const known = (field: string) => !resource || Object.hasOwn(fields, field);
  const resolved: ResolvedPage = {
    ...page,
    rowKey: resource?.rowKey ?? 'id',
    list: page.list ? { ...page.list, columns: page.list.columns.filter((c) => known(c.field)).map((c) => resolveColumn(c, fields)) } : undefined,
    search: page.search ? { ...page.search, items: (page.search.items ?? []).map((i) => resolveSearchItem(i, fields)) } : undefined,
    form: page.form && contract ? compileForm(page.form, contract) : undefined,
    detail: page.detail ? { refreshSeconds: page.detail.refreshSeconds, live: page.detail.live, sections: page.detail.sections.map((s) => ({ ...s, fields: s.fields.filter((c) => known(c.field)).map((c) => resolveColumn(c, fields)) })) } : undefined,
  };
  return { ...loaded, schema: resolved };
}

/** The resource fields as the browser is sent them: label, type, options, cell and what lists may do with each. */
export function publicFields(columns: Record<string, FieldDef & { filter?: boolean; sort?: boolean; search?: boolean; readable?: boolean; internal?: boolean }>): Record<string, ResourceField> {
  return Object.fromEntries(Object.entries(columns).filter(([, c]) => c.readable !== false).map(([name, c]) => [name, {
    type: c.type, ...(c.label !== undefined ? { label: c.label } : {}), ...(c.options !== undefined ? { options: c.options } : {}),
    ...(c.cell ? { cell: c.cell } : {}), filter: !!c.filter, sort: !!c.sort, search: !!c.search,
    // The resource schema declares what is kept for the system (resource.schema.json `internal`); unlabeled means internal.
    ...((c.internal ?? c.label === undefined) ? { internal: true } : {}),
  }]));
}

/**
 * The fields a designer's picker offers (a new column, a search item): not those the resource declares internal,
 * each with its label in `lang`, in the order of those labels.
 */
export function pickableFields(fields: Record<string, ResourceField>, names: string[], lang: string): { name: string; label: string; added: boolean }[] {
  return names.filter((n) => fields[n] && !fields[n].internal)
    .map((n) => ({ name: n, label: resolveLabel(fields[n].label ?? n, lang), added: !!fields[n].added }))
    .sort((a, b) => a.label.localeCompare(b.label, lang) || a.name.localeCompare(b.name));
}

/** The added field types a list filters and sorts by (server/resources/extra-fields.ts compares them); arrays and JSON have no order. */
const COMPARED_ADDED = new Set<FieldType>(['string', 'integer', 'number', 'boolean', 'date', 'datetime']);

/**
 * The resource's fields with those a hospital's contract extension adds (`contract.extended`, kept in `extra`), so a
 * list can show them as columns with their labels and option words. Fields marked `added` before are dropped first
 * (the designer layers its draft extension over what the server sent). The server filters and sorts a scalar added
 * field by its value inside `extra` (indexed when the extension is saved), for the hospital that added it; the
 * keyword search stays on the resource's own columns (`search: false`).
 */
export function withAddedFields(fields: Record<string, ResourceField>, contract: Contract | undefined): Record<string, ResourceField> {
  const out = Object.fromEntries(Object.entries(fields).filter(([, f]) => !f.added));
  for (const name of contract?.extended ?? []) {
    const def = contract!.fields[name];
    if (!def || Object.hasOwn(out, name)) continue;
    const compared = COMPARED_ADDED.has(def.type);
    out[name] = {
      type: def.type, ...(def.label !== undefined ? { label: def.label } : {}), ...(def.options !== undefined ? { options: def.options } : {}),
      ...(def.cell ? { cell: def.cell } : {}), filter: compared, sort: compared, search: false, added: true,
    };
  }
  return out;
}

export type { ResourceInfo };
