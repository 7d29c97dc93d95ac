import { describe, expect, it } from 'vitest';
import { menuKey, menuKeys, menusToAdd, type SeedMenu } from './menu-upgrade.js';

const node = (alias: string, children: SeedMenu[] = [], route = alias): SeedMenu => ({
  uri: `/manage/${route}`, alias, route_name: route, name: route, en_name: route, is_show: '1', icon: null, external_link: 0, children,
});
const tree = [node('', [node('A'), node('B'), node('C')], 'Group'), node('', [node('X')], 'NewGroup')];

describe('menu upgrade plan', () => {
  it('knows a group (no alias) by its route name', () => {
    expect(menuKey(tree[0])).toBe('Group');
    expect(menuKeys(tree)).toEqual(['Group', 'A', 'B', 'C', 'NewGroup', 'X']);
  });

  it('adds what the installation lacks, parents first, with the seed siblings before it nearest first', () => {
    const plan = menusToAdd(tree, new Set(['Group', 'A']), new Set(['Group', 'A', 'B']));
    expect(plan.map(({ key, parentKey, before }) => ({ key, parentKey, before }))).toEqual([
      { key: 'C', parentKey: 'Group', before: ['B', 'A'] },
      { key: 'NewGroup', parentKey: null, before: ['Group'] },
      { key: 'X', parentKey: 'NewGroup', before: [] },
    ]);
  });

  it('does not bring back a delivered entry an administrator deleted', () => {
    expect(menusToAdd(tree, new Set(['Group', 'A', 'C', 'NewGroup', 'X']), new Set(menuKeys(tree)))).toEqual([]);
  });

  it('without a record (an older installation) adds every missing entry', () => {
    expect(menusToAdd(tree, new Set(['Group', 'A', 'C', 'NewGroup']), null).map((p) => p.key)).toEqual(['B', 'X']);
  });
});
