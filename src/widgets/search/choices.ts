import { createContext, useContext } from 'react';
import type { SearchOption } from '../../core/pageSchema';

/** A choice ready to show: its label already in the current language. */
export interface Choice { value: unknown; label: string; color?: string }

/**
 * How the search widgets turn an item's `options` (an enum name, `resource:<name>`, or an inline list)
 * into choices. The widgets only know this signature; the engine provides the hook that calls the API.
 */
export type UseChoices = (source: string | SearchOption[] | undefined) => Choice[];

const inlineOnly: UseChoices = (source) =>
  Array.isArray(source) ? source.map((o) => ({ value: o.value, label: typeof o.label === 'string' ? o.label : Object.values(o.label)[0] })) : [];

export const ChoicesContext = createContext<UseChoices>(inlineOnly);
export const useChoicesHook = () => useContext(ChoicesContext);

/** Values compare as text so '1' from the address matches 1 from the server. */
export const choiceOf = (choices: readonly Choice[], value: unknown) => choices.find((c) => String(c.value) === String(value));
