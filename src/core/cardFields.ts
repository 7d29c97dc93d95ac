import type { CardSchema, Column, GridSchema, ListLayout } from './pageSchema.js';

/** A card's parts as columns, so each value is drawn by its column's cell kind (enum badge, file size, date). */
export interface CardColumns {
  image?: Column;
  title: Column;
  subtitle: Column[];
  meta: Column[];
}

/**
 * Resolves the card's fields to the list's columns. A field no column shows still appears, as plain
 * text labelled by its name, rather than vanishing from the card.
 */
export function cardColumns(card: CardSchema, columns: Column[]): CardColumns {
  const byField = new Map(columns.map((c) => [c.field, c]));
  const find = (field: string): Column => byField.get(field) ?? { field, label: field, cell: 'text' };
  return {
    image: card.image ? { ...find(card.image), cell: 'image' } : undefined,
    title: find(card.title),
    subtitle: (card.subtitle ?? []).map(find),
    meta: (card.meta ?? []).map(find),
  };
}

/** The layouts a list offers: cards only when it describes a card, the grid only when it describes one. */
export const layoutsOf = (list: { card?: CardSchema; grid?: GridSchema }): ListLayout[] =>
  ['table', ...(list.card ? ['cards' as const] : []), ...(list.grid ? ['grid' as const] : [])];

/** The layout to show: the user's stored choice when the list offers it, else the schema's, else the table. */
export function pickLayout(list: { card?: CardSchema; grid?: GridSchema; layout?: ListLayout }, stored: string | null): ListLayout {
  const offered = layoutsOf(list);
  if (stored && (offered as string[]).includes(stored)) return stored as ListLayout;
  return list.layout && offered.includes(list.layout) ? list.layout : 'table';
}
