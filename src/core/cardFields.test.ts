import { describe, expect, it } from 'vitest';
import { cardColumns, layoutsOf, pickLayout } from './cardFields.js';
import type { Column, ListSchema } from './pageSchema.js';

const columns: Column[] = [
  { field: 'thumb_url', label: 'Thumbnail', cell: 'image' },
  { field: 'name', label: 'Name', cell: 'text' },
  { field: 'pathology_number', label: 'Pathology no.', cell: 'text' },
  { field: 'patient_name', label: 'Patient', cell: 'text' },
  { field: 'file_size', label: 'Size', cell: 'filesize' },
  { field: 'status', label: 'Status', cell: 'enum', options: 'slide_status' },
];

describe('card fields', () => {
  it('takes each card part from the column of that field', () => {
    const card = cardColumns({ image: 'thumb_url', title: 'name', subtitle: ['pathology_number', 'patient_name'], meta: ['file_size', 'status'] }, columns);
    expect(card.image?.field).toBe('thumb_url');
    expect(card.title).toEqual(columns[1]);
    expect(card.subtitle.map((c) => c.label)).toEqual(['Pathology no.', 'Patient']);
    expect(card.meta).toEqual([columns[4], columns[5]]);
  });

  it('shows a field no column shows as text labelled by its name', () => {
    const card = cardColumns({ title: 'md5' }, columns);
    expect(card.title).toEqual({ field: 'md5', label: 'md5', cell: 'text' });
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
    expect(pickLayout({ layout: 'cards' }, null)).toBe('table');
    expect(pickLayout(cards, 'grid')).toBe('cards');
  });

  it('offers the grid only with a grid description, and opens on it when the schema says so', () => {
    const roster: ListSchema = { columns, layout: 'grid', grid: { row: 'member_id', column: 'duty_date', value: 'shift_id' } };
    expect(layoutsOf(roster)).toEqual(['table', 'grid']);
    expect(pickLayout(roster, null)).toBe('grid');
    expect(pickLayout(roster, 'table')).toBe('table');
    expect(pickLayout(roster, 'cards')).toBe('grid');
    expect(pickLayout({ layout: 'grid' }, null)).toBe('table');
  });
});
