import type { CardSchema, ColumnSchema, ListLayout, ListSchema } from './pageSchema.js';

/** A card's parts as columns, so each value is formatted by its column's type (enum badge, file size, date). */
export interface CardColumns {
  image?: ColumnSchema;
  title: ColumnSchema;
  subtitle: ColumnSchema[];
  meta: ColumnSchema[];
}

function flatten(columns: ColumnSchema[]): ColumnSchema[] {
  return columns.flatMap((c) => (c.children?.length ? flatten(c.children) : [c]));
}

/**
 * Resolves the card's props to the list's columns (grouped columns included). A prop no column
 * declares still shows, as plain text labelled by its name, rather than vanishing from the card.
 */
export function cardColumns(card: CardSchema, columns: ColumnSchema[]): CardColumns {
  const byProp = new Map(flatten(columns).map((c) => [c.prop, c]));
  const find = (prop: string): ColumnSchema => byProp.get(prop) ?? { prop, label: prop, type: 'text' };
  return {
    image: card.image ? { ...find(card.image), type: 'image' } : undefined,
    title: find(card.title),
    subtitle: (card.subtitle ?? []).map(find),
    meta: (card.meta ?? []).map(find),
  };
}

/** The layouts a list offers: cards only when it describes a card. */
export const layoutsOf = (list: ListSchema): ListLayout[] => (list.card ? ['table', 'cards'] : ['table']);

/** The layout to show: the user's stored choice when the list offers it, else the schema's, else the table. */
export function pickLayout(list: ListSchema, stored: string | null): ListLayout {
  const offered = layoutsOf(list);
  if (stored && (offered as string[]).includes(stored)) return stored as ListLayout;
  return list.layout && offered.includes(list.layout) ? list.layout : 'table';
}
