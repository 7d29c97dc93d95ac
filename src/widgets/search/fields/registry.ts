import { namedRegistry } from '../../../core/namedRegistry';
import type { ComponentType } from 'react';
import type { SearchField, SearchWidget } from '../../../core/pageSchema';

/** What every search input gets: the item, its value, its label, and whether it stands in the narrow drawer. */
export interface SearchInputProps {
  item: Pick<SearchField, 'widget' | 'options' | 'props'>;
  /** The widget drawn, when it differs from the item's (custom search: `between` on a number asks for a pair). */
  widget: SearchWidget;
  multiple?: boolean;
  value: unknown;
  label: string;
  stacked?: boolean;
  onChange(value: unknown): void;
}

/**
 * Search widget → its input, after the renderer registry (src/engine/registry.ts): one file per family in
 * this folder, registered by `fields/index.ts`. A new widget is a file and a line there; the custom search offers it
 * the operators schemas/rules/search-operators.json lists for it (`=` when none).
 */
const inputs = namedRegistry<ComponentType<SearchInputProps>>('search widget');

/** Adds a search widget; a name registered twice throws (two files claiming one widget). */
export function registerSearchWidget(widget: SearchWidget, component: ComponentType<SearchInputProps>): void {
  inputs.register(widget, component);
}

/** The input of a widget; the text input for one nobody registered. */
export const resolveSearchWidget = (widget: string): ComponentType<SearchInputProps> | undefined => inputs.get(widget) ?? inputs.get('input');
/** The widgets registered: the page check's list of known widgets. */
export const searchWidgets = (): string[] => inputs.names();
