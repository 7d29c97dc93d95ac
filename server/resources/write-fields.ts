import type { Contract } from '../../src/core/contract.js';
import { resolveLabel } from '../../src/core/labels.js';
import type { MessageKey } from '../i18n/messages.js';
import type { Language, Params } from '../i18n/translate.js';
import { AppError } from '../http/errors.js';
import type { ResourceDef } from './definition.js';
import type { ResourceHooks } from './hooks/types.js';
import { WRITE_LIMITS } from './limits.js';

type FieldErrors = Record<string, { key: MessageKey; params?: Params }[]>;

/**
 * What a write body may carry, checked before it is opened, validated or stored. Every field is one the
 * resource knows (a column, a virtual or computed field, one its hooks consume) or one its contract, as
 * layered for the hospital, accepts: an unknown field is refused by name, never dropped silently nor kept
 * in `extra`. Text is within its declared maxLength (checked by the contract's validation) or else
 * WRITE_LIMITS.textLength, in nested lists and objects too; the whole body within WRITE_LIMITS.bodyChars.
 */
export function checkWriteFields(def: ResourceDef, hooks: ResourceHooks | undefined, contract: Contract, body: Record<string, unknown>, lang: Language): void {
  const declared = contract.fields;
  const known = new Set([...Object.keys(def.columns), ...Object.keys(def.virtual ?? {}), ...Object.keys(def.computed ?? {}), ...(hooks?.consumes ?? [])]);
  const title = (field: string) => resolveLabel(declared[field]?.label, lang) || field;
  const errors: FieldErrors = {};
  const add = (field: string, key: MessageKey, params: Params = {}) => (errors[field] ??= []).push({ key, params: { field: title(field), ...params } });

  const isDeclared = (field: string) => Object.hasOwn(declared, field);
  for (const [field, value] of Object.entries(body)) {
    if (!known.has(field) && !isDeclared(field)) add(field, 'validation.unknown_field');
    else if (typeof value === 'string' && !(isDeclared(field) && declared[field].maxLength !== undefined) && value.length > WRITE_LIMITS.textLength) {
      add(field, 'validation.maxLength', { limit: WRITE_LIMITS.textLength });
    }
  }
  if (Object.keys(errors).length) throw new AppError(422, 'error.validation', {}, errors);

  const size = JSON.stringify(body).length;
  if (size > WRITE_LIMITS.bodyChars) throw new AppError(422, 'validation.body_too_large', { size, limit: WRITE_LIMITS.bodyChars });
  for (const [field, value] of Object.entries(body)) {
    if (typeof value === 'object' && value !== null && longestText(value) > WRITE_LIMITS.textLength) add(field, 'validation.maxLength', { limit: WRITE_LIMITS.textLength });
  }
  if (Object.keys(errors).length) throw new AppError(422, 'error.validation', {}, errors);
}

/** The longest text inside a list or object; a loop, not recursion, so no nesting depth can overflow the stack. */
function longestText(root: object): number {
  let longest = 0;
  const stack: unknown[] = [root];
  while (stack.length) {
    const v = stack.pop();
    if (typeof v === 'string') longest = Math.max(longest, v.length);
    else if (v && typeof v === 'object') for (const child of Object.values(v)) stack.push(child);
  }
  return longest;
}
