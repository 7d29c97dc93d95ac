import { fillTemplate } from './actions.js';
import type { ActionRequest, ActionSchema, PromptSchema } from './pageSchema.js';

type Row = Record<string, unknown>;

/** One call an action makes: its method, its address filled from the row, and the JSON body if any. */
export interface PlannedRequest {
  method: ActionRequest['method'];
  url: string;
  body?: Row;
}

/** A prompt's answer: one value, several (a `multiple` prompt), or null for none. */
export type PromptAnswer = string | string[] | null;

/**
 * The prompt's answer as sent: the dialog trims it, and an empty answer (allowed when the prompt is
 * not required) goes as null, which the server reads as "none" (e.g. unbind from a case). A `multiple`
 * prompt's answer goes as a list, trimmed, without blanks or repeats (none: an empty list).
 */
export function promptValue(raw: string | readonly string[]): PromptAnswer {
  if (typeof raw === 'string') return raw.trim() || null;
  return [...new Set(raw.map((v) => v.trim()).filter(Boolean))];
}

/**
 * What the prompt starts with: the values of the rows' `defaultFrom` field (SlideQC's "unqualified" starts with the
 * focus check's suggested reasons). A list, or for a `multiple` prompt text with commas (a list kept in one column),
 * gives several values; a single prompt takes the first. With several rows, the values every one of them has.
 */
export function promptDefault(prompt: PromptSchema, rows: readonly Row[]): string[] {
  const from = prompt.defaultFrom;
  if (!from || !rows.length) return [];
  const valuesOf = (row: Row): string[] => {
    const v = row[from];
    const list: unknown[] = Array.isArray(v) ? v : typeof v === 'string' && prompt.multiple ? v.split(',') : [v];
    return list.filter((x) => typeof x === 'string' || (typeof x === 'number' && Number.isFinite(x))).map((x) => String(x).trim()).filter(Boolean);
  };
  const [first, ...rest] = rows.map(valuesOf);
  const shared = [...new Set(first)].filter((v) => rest.every((r) => r.includes(v)));
  return prompt.multiple ? shared : shared.slice(0, 1);
}

/** The fixed body fields and the prompt's field; undefined when the action sends no body. */
function bodyOf(action: ActionSchema, value: PromptAnswer | undefined): Row | undefined {
  const fixed = action.request?.data;
  if (!action.prompt && !fixed) return undefined;
  return { ...fixed, ...(action.prompt && value !== undefined ? { [action.prompt.field]: typed(action.prompt, value) } : {}) };
}

/** An `integer` prompt's answer goes as a number (an id chosen from a select, e.g. the doctor to assign); each of a list's too. */
function typed(prompt: { type?: string }, value: PromptAnswer): unknown {
  const one = (v: string) => (prompt.type === 'integer' && /^-?\d+$/.test(v) ? Number(v) : v);
  if (value === null) return null;
  return Array.isArray(value) ? value.map(one) : one(value);
}

/** The fields a `patch` action sends to each row: its fixed patch, then the prompt's answer. */
export function patchBody(action: ActionSchema, value?: PromptAnswer): Row {
  return { ...action.patch, ...(action.prompt && value !== undefined ? { [action.prompt.field]: value } : {}) };
}

/**
 * The calls of a `request` (or `download`) action on the chosen rows. With `body: "ids"` it is one
 * call for all of them (`{ ids, ...fixed, [prompt field]: value }`), so a batch action makes one
 * request; otherwise one call per row with `{field}` in the address from that row. A toolbar action
 * (no rows) makes one call. `body: "ids"` without rows makes none: there is nothing to act on.
 */
export function planRequests(action: ActionSchema, rows: Row[], rowKey: string, value?: PromptAnswer): PlannedRequest[] {
  const req = action.request;
  if (!req) return [];
  const body = bodyOf(action, value);
  if (req.body === 'ids') {
    if (!rows.length) return [];
    const ids = rows.map((r) => r[req.idsFrom ?? rowKey]);
    return [{ method: req.method, url: fillTemplate(req.url, {}), body: { ...body, [req.idsField ?? 'ids']: ids } }];
  }
  const targets = rows.length ? rows : [{}];
  return targets.map((r) => ({ method: req.method, url: fillTemplate(req.url, r), ...(body ? { body } : {}) }));
}

/**
 * The body of a `form` action: its fixed fields, then each answer at its field's path, where a dotted field
 * (`specimens.0.name`) builds nested objects and lists (a number segment is a list index). Empty answers are
 * left out, so optional fields keep the server's defaults; an `integer` field goes as a number. A fixed field whose
 * value is exactly `"{field}"` takes that field of the row the action acts on, as the row holds it (an outbound
 * order from a batch's row: its consumable and batch number).
 */
export function formBody(action: ActionSchema, values: Record<string, string>, row?: Row): Row {
  const body: Row = structuredClone(action.request?.data ?? {});
  for (const [key, v] of Object.entries(body)) {
    const named = typeof v === 'string' ? /^\{([a-z_][a-z0-9_]*)\}$/.exec(v) : null;
    if (named) body[key] = row?.[named[1]] ?? null;
  }
  for (const f of action.fields ?? []) {
    const raw = (values[f.field] ?? '').trim();
    if (!raw) continue;
    const path = f.field.split('.');
    let at: Record<string, unknown> = body;
    path.slice(0, -1).forEach((seg, i) => {
      at[seg] ??= /^\d+$/.test(path[i + 1]) ? [] : {};
      at = at[seg] as Record<string, unknown>;
    });
    at[path[path.length - 1]] = f.type === 'integer' ? Number(raw) : raw;
  }
  return body;
}

/** The required fields of a form action left empty. */
export const missingFields = (action: ActionSchema, values: Record<string, string>): string[] =>
  (action.fields ?? []).filter((f) => f.required && !(values[f.field] ?? '').trim()).map((f) => f.field);

/**
 * What a lookup's answer fills in: each of the form's fields (not the looked-up one) whose name the answer
 * holds with a value, as the text the form keeps; nested fields (`specimens.0.name`) and empty values are left.
 */
export function lookupFill(action: ActionSchema, from: string, answer: unknown): Record<string, string> {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return {};
  const a = answer as Row;
  const filled: Record<string, string> = {};
  for (const f of action.fields ?? []) {
    if (f.field === from || f.field.includes('.') || !Object.hasOwn(a, f.field)) continue;
    const v = a[f.field];
    if (typeof v === 'string' ? v.trim() : typeof v === 'number' && Number.isFinite(v)) filled[f.field] = String(v);
  }
  return filled;
}

/**
 * What a `reveal` action shows from the request's answer: its field as text, or null when the answer has no such
 * field or only an empty one (nothing to show, so nothing to tell the user to keep).
 */
export function revealedValue(answer: unknown, field: string): string | null {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) return null;
  const v = (answer as Row)[field];
  if (typeof v === 'number' && Number.isFinite(v)) return String(v);
  return typeof v === 'string' && v.trim() ? v : null;
}
