import { describe, expect, it } from 'vitest';
import { cardColumns, layoutsOf, pickLayout } from './cardFields.js';
import type { ColumnSchema, ListSchema } from './pageSchema.js';

const columns: ColumnSchema[] = [
  { prop: 'thumb_url', label: 'Thumbnail', type: 'image' },
  { prop: 'name', label: 'Name' },
  { prop: 'case', label: 'Case', children: [{ prop: 'pathology_number', label: 'Pathology no.' }, { prop: 'patient_name', label: 'Patient' }] },
  { prop: 'file_size', label: 'Size', type: 'filesize' },
  { prop: 'status', label: 'Status', type: 'enum', options: 'slide_status' },
];

describe('card fields', () => {
  it('takes each card part from the column of that prop, grouped columns included', () => {
    const card = cardColumns({ image: 'thumb_url', title: 'name', subtitle: ['pathology_number', 'patient_name'], meta: ['file_size', 'status'] }, columns);
    expect(card.image?.prop).toBe('thumb_url');
    expect(card.title).toEqual(columns[1]);
    expect(card.subtitle.map((c) => c.label)).toEqual(['Pathology no.', 'Patient']);
    expect(card.meta).toEqual([columns[3], columns[4]]);
  });

  it('shows a prop no column declares as text labelled by its name', () => {
    const card = cardColumns({ title: 'md5' }, columns);
    expect(card.title).toEqual({ prop: 'md5', label: 'md5', type: 'text' });
    expect(card.image).toBeUndefined();
    expect(card.subtitle).toEqual([]);
    expect(card.meta).toEqual([]);
  });
});

describe('list layout', () => {
  const table: ListSchema = { columns };
  const cards: ListSchema = { columns, layout: 'cards', card: { title: 'name' } };
  const toggle: ListSchema = { columns, card: { title: 'name' } };

  it('offers cards only with a card description', () => {
    expect(layoutsOf(table)).toEqual(['table']);
    expect(layoutsOf(toggle)).toEqual(['table', 'cards']);
  });

  it("uses the user's stored choice when offered, else the schema's layout, else the table", () => {
    expect(pickLayout(cards, null)).toBe('cards');
    expect(pickLayout(cards, 'table')).toBe('table');
    expect(pickLayout(toggle, null)).toBe('table');
    expect(pickLayout(toggle, 'cards')).toBe('cards');
    expect(pickLayout(table, 'cards')).toBe('table');
    expect(pickLayout({ columns, layout: 'cards' }, null)).toBe('table');
    expect(pickLayout(cards, 'grid')).toBe('cards');
  });
});
