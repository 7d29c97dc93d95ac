import type { SearchField as SearchFieldSchema, SearchWidget } from '../../core/pageSchema';
import { resolveSearchWidget } from './fields';

export interface SearchFieldProps {
  item: Pick<SearchFieldSchema, 'widget' | 'options' | 'props'>;
  /** Overrides the item's widget (custom search: `between` on a number asks for a pair). */
  widget?: SearchWidget;
  multiple?: boolean;
  value: unknown;
  label: string;
  /** In the narrow drawer, ranges put their two ends one above the other. */
  stacked?: boolean;
  onChange(value: unknown): void;
}

/** One search input by its widget (spec §3 "Search form item"), from the search-widget registry (./fields). */
export function SearchField({ item, widget = item.widget, ...rest }: SearchFieldProps) {
  const Input = resolveSearchWidget(widget)!;
  return <Input item={item} widget={widget} {...rest} />;
}
