import { describe, expect, it } from 'vitest';
import { applyMenuOverride, menuOverrideProblems } from './menuOverride';

interface N { route_name: string; name: string; en_name: string; is_show: string; children?: N[] }
const node = (route_name: string, children?: N[]): N => ({ route_name, name: `${route_name}-zh`, en_name: `${route_name}-en`, is_show: '1', ...(children ? { children } : {}) });
const tree = [node('Home', [node('Dashboard')]), node('Case', [node('CaseList'), node('CaseRegistration'), node('CaseCollection')])];

describe('a hospital\'s menu override (issue 31)', () => {
  it('renames, hides and reorders within a group; what it does not name stays as it was', () => {
    const out = applyMenuOverride(tree, { entries: {
      CaseList: { name: '病例总览', en_name: 'All cases', rank: 2 }, CaseCollection: { hidden: true, rank: 0 }, CaseRegistration: { rank: 1 }, Case: { rank: 0 }, Home: { rank: 1 },
    } });
    expect(out.map((n) => n.route_name)).toEqual(['Case', 'Home']);
    expect(out[0].children!.map((n) => [n.route_name, n.name, n.en_name, n.is_show])).toEqual([
      ['CaseCollection', 'CaseCollection-zh', 'CaseCollection-en', '0'], ['CaseRegistration', 'CaseRegistration-zh', 'CaseRegistration-en', '1'], ['CaseList', '病例总览', 'All cases', '1'],
    ]);
    expect(out[1].children).toEqual(tree[0].children);
    expect(applyMenuOverride(tree, {})).toBe(tree);
    expect(applyMenuOverride(tree, { entries: { CaseList: null } })).toEqual(tree);
  });

  it('refuses unknown entries and keys, empty or long names, ranks out of range', () => {
    const known = new Set(['CaseList', 'Case']);
    expect(menuOverrideProblems({ entries: { CaseList: { name: 'x', hidden: false, rank: 3 }, Case: null } }, known)).toEqual([]);
    expect(menuOverrideProblems({ entries: { Nope: {}, CaseList: { name: '', en_name: 'x'.repeat(65), rank: 1.5, hidden: 'yes', colour: 'red' } }, more: 1 }, known).map((p) => p.path)).toEqual([
      '/more', '/entries/Nope', '/entries/CaseList/colour', '/entries/CaseList/name', '/entries/CaseList/en_name', '/entries/CaseList/hidden', '/entries/CaseList/rank',
    ]);
    expect(menuOverrideProblems([], known)).toHaveLength(1);
  });
});
