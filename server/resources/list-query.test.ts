import { describe, expect, it } from 'vitest';
import { checkResource, type ResourceDef } from './definition.js';
import { parseListQuery } from './list-query.js';

/** A resource as its JSON file declares it, with only what a list reads. */
const resource = (over: Partial<ResourceDef>): ResourceDef => ({
  name: 'things', table: 'things', route: '/api/things', readOnly: true, permissions: { list: 'x', read: 'x' },
  columns: {
    id: { type: 'integer', filter: true, sort: true },
    age: { type: 'integer', filter: true },
    age_unit: { type: 'string', filter: true },
    pathology_number: { type: 'string', filter: true, search: true },
    slide_code: { type: 'string', filter: true, search: true },
  },
  ...over,
} as ResourceDef);
const columns = (filter: unknown[]): unknown[] => filter.flatMap((c) => {
  const cond = c as { column?: string; child?: unknown[] };
  return cond.child ? columns(cond.child) : [cond.column];
});

describe('rules a resource declares for its lists (not the engine)', () => {
  it('brings the conditions a column implies only where the resource declares them (cases: age in years)', () => {
    const query = { filter: JSON.stringify([{ column: 'age', operator: '>=', value: 60 }]), params: JSON.stringify({ age: 3 }) };
    expect(parseListQuery(query, resource({})).filter).toEqual([
      { column: 'age', operator: '=', value: 3, condition: 'and' },
      { column: 'age', operator: '>=', value: 60, condition: 'and' },
    ]);
    const declared = resource({ impliedFilters: { age: [{ column: 'age_unit', operator: '=', value: 'year' }] } });
    expect(parseListQuery(query, declared).filter).toEqual([
      { column: 'age', operator: '=', value: 3, condition: 'and' },
      { column: 'age_unit', operator: '=', value: 'year', condition: 'and' },
      { column: 'age', operator: '>=', value: 60, condition: 'and' },
      { column: 'age_unit', operator: '=', value: 'year', condition: 'and' },
    ]);
  });

  it('matches a scanned label code in the column the resource declares, and in none when it declares none', () => {
    const scan = { search: 'S2026-0001-A1' };
    expect(columns(parseListQuery(scan, resource({})).filter)).toEqual(['pathology_number', 'slide_code']);
    const declared = columns(parseListQuery(scan, resource({ labelSearch: 'slide_code' })).filter);
    // The keyword columns, then the label code's exact match on the declared column.
    expect(declared.slice(0, 2)).toEqual(['pathology_number', 'slide_code']);
    expect(declared.slice(2).every((c) => c === 'slide_code')).toBe(true);
    expect(declared.length).toBeGreaterThan(2);
  });

  it('refuses at load a rule naming a column lists cannot filter by, with the file and the rule named', () => {
    expect(() => checkResource(resource({ impliedFilters: { age: [{ column: 'nope', operator: '=', value: 1 }] } }), 'things.json')).toThrow(/things\.json: impliedFilters: age/);
    expect(() => checkResource(resource({ labelSearch: 'nope' }), 'things.json')).toThrow(/things\.json: labelSearch: nope/);
    expect(checkResource(resource({ labelSearch: 'slide_code', impliedFilters: { age: [{ column: 'age_unit', operator: '=', value: 'year' }] } }), 'things.json').labelSearch).toBe('slide_code');
  });
});
