import type { Contract, FieldDef } from './contract.js';

/** A field registration stored on a case: its name, what it is (label, options), and whether the hospital added it. */
export interface RegisteredField {
  name: string;
  def: FieldDef;
  /** A field the hospital added in the designer: kept in the case's `extra`, not in a column. */
  added: boolean;
}

/** A field of the form's layout, with the words and options it may give the field there (CaseRegistration's case_type). */
export type LayoutField = Pick<FieldDef, 'label' | 'options'> & { field: string };

/** Form fields that are no value of the case row: the specimens are their own table, listed apart. */
const NOT_ON_THE_CASE = new Set(['specimens']);

/**
 * The fields the case page shows (issue 31 item 9): every field of the registration form as the hospital has it, in
 * its layout's order, then the fields the hospital added that its layout does not place (the form draws those at its
 * end too). The form is the one list of what registration asks, so the page shows what was typed, whatever the
 * hospital made of the form.
 */
export function registeredFields(layout: readonly (string | LayoutField)[], contract: Contract | undefined): RegisteredField[] {
  const added = new Set(contract?.extended ?? []);
  const placed = new Map(layout.map((f): [string, LayoutField] => (typeof f === 'string' ? [f, { field: f }] : [f.field, f])));
  const names = [...placed.keys(), ...added].filter((n) => !NOT_ON_THE_CASE.has(n));
  return [...new Set(names)].map((name) => {
    const { label, options }: Partial<LayoutField> = placed.get(name) ?? {};
    const def: FieldDef = { ...(contract?.fields[name] ?? { type: 'string' }), ...(label ? { label } : {}), ...(options ? { options } : {}) };
    return { name, def, added: added.has(name) };
  });
}

/** The case's `extra` as the lab route sends it (JSON text) or as a row already spread it; anything else holds nothing. */
export function extraOf(extra: unknown): Record<string, unknown> {
  if (extra && typeof extra === 'object' && !Array.isArray(extra)) return extra as Record<string, unknown>;
  if (typeof extra !== 'string' || !extra) return {};
  try {
    const parsed: unknown = JSON.parse(extra);
    return parsed && typeof parsed === 'object' && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const empty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0);

/**
 * What registration stored for a field: the case's column when it has one, else its `extra` (spec §3 fields without
 * a column, such as nation and career, and the hospital's added fields). Undefined when nothing was typed.
 */
export function registeredValue(row: Record<string, unknown>, extra: Record<string, unknown>, name: string): unknown {
  const v = empty(row[name]) ? extra[name] : row[name];
  return empty(v) ? undefined : v;
}
