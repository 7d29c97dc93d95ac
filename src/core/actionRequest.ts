import { fillTemplate } from './actions.js';
import type { ActionRequest, ActionSchema } from './pageSchema.js';

type Row = Record<string, unknown>;

/** One call an action makes: its method, its address filled from the row, and the JSON body if any. */
export interface PlannedRequest {
  method: ActionRequest['method'];
  url: string;
  body?: Row;
}

/**
 * The prompt's answer as sent: the dialog trims it, and an empty answer (allowed when the prompt is
 * not required) goes as null, which the server reads as "none" (e.g. unbind from a case).
 */
export const promptValue = (raw: string): string | null => raw.trim() || null;

/** The fixed body fields and the prompt's field; undefined when the action sends no body. */
function bodyOf(action: ActionSchema, value: string | null | undefined): Row | undefined {
  const fixed = action.request?.data;
  if (!action.prompt && !fixed) return undefined;
  return { ...fixed, ...(action.prompt && value !== undefined ? { [action.prompt.field]: value } : {}) };
}

/** The fields a `patch` action sends to each row: its fixed patch, then the prompt's answer. */
export function patchBody(action: ActionSchema, value?: string | null): Row {
  return { ...action.patch, ...(action.prompt && value !== undefined ? { [action.prompt.field]: value } : {}) };
}

/**
 * The calls of a `request` (or `download`) action on the chosen rows. With `body: "ids"` it is one
 * call for all of them (`{ ids, ...fixed, [prompt field]: value }`), so a batch action makes one
 * request; otherwise one call per row with `{field}` in the address from that row. A toolbar action
 * (no rows) makes one call. `body: "ids"` without rows makes none: there is nothing to act on.
 */
export function planRequests(action: ActionSchema, rows: Row[], rowKey: string, value?: string | null): PlannedRequest[] {
  const req = action.request;
  if (!req) return [];
  const body = bodyOf(action, value);
  if (req.body === 'ids') {
    if (!rows.length) return [];
    const ids = rows.map((r) => r[rowKey]);
    return [{ method: req.method, url: fillTemplate(req.url, {}), body: { ...body, ids } }];
  }
  const targets = rows.length ? rows : [{}];
  return targets.map((r) => ({ method: req.method, url: fillTemplate(req.url, r), ...(body ? { body } : {}) }));
}
