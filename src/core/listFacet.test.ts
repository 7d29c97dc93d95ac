import { describe, expect, it } from 'vitest';
import { facetChoices, facetValue, withFacet } from './listFacet';

const options = [
  { value: 'doing', label: 'In progress', color: 'brand' },
  { value: 'done', label: 'Done', color: 'success' },
  { value: 'urgent', label: 'Urgent' },
];

describe('facetChoices', () => {
  it('offers the enum in its order with counts, 0 for a value the server did not count', () => {
    expect(facetChoices({ field: 'case_stages', options: 'case_stage' }, options, { doing: 4, urgent: 1 })).toEqual([
      { value: 'doing', label: 'In progress', color: 'brand', count: 4 },
      { value: 'done', label: 'Done', color: 'success', count: 0 },
      { value: 'urgent', label: 'Urgent', count: 1 },
    ]);
  });
  it('offers only the schema\'s values, in its order; counts unknown are null; an unknown value keeps its name', () => {
    expect(facetChoices({ field: 'f', options: 'case_stage', values: ['urgent', 'made_up', 'doing'] }, options, null)).toEqual([
      { value: 'urgent', label: 'Urgent', count: null },
      { value: 'made_up', label: 'made_up', count: null },
      { value: 'doing', label: 'In progress', color: 'brand', count: null },
    ]);
  });
});

describe('withFacet / facetValue', () => {
  it('sets, replaces and clears the choice, keeping the other search values', () => {
    const set = withFacet({ patient_name: 'Li' }, 'case_stages', 'doing');
    expect(set).toEqual({ patient_name: 'Li', case_stages: 'doing' });
    expect(facetValue(set, 'case_stages')).toBe('doing');
    expect(withFacet(set, 'case_stages', 'done')).toEqual({ patient_name: 'Li', case_stages: 'done' });
    const cleared = withFacet(set, 'case_stages', null);
    expect(cleared).toEqual({ patient_name: 'Li' });
    expect(facetValue(cleared, 'case_stages')).toBeNull();
    expect(facetValue({ case_stages: ['x'] }, 'case_stages')).toBeNull();
  });
});
