import { describe, expect, it } from 'vitest';
import { collapsesOnOutsideClick, firstLeaf, menuLabel, menuRoutes, visibleMenu, type MenuEntry } from './menuRules.js';

const entry = (alias: string, over: Partial<MenuEntry> = {}): MenuEntry => ({
  uri: `/manage/${alias.toLowerCase()}`, alias, route_name: alias, name: `${alias}-zh`, en_name: `${alias}-en`, is_show: '1', icon: alias.toLowerCase(), children: [], ...over,
});

describe('side menu (spec §2)', () => {
  it('shows only entries with is_show "1"', () => {
    const menu = visibleMenu([entry('A'), entry('B', { is_show: '0' }), entry('C', { is_show: 0 })]);
    expect(menu.map((m) => m.alias)).toEqual(['A']);
  });

  it('hides a parent with no visible children', () => {
    const parent = entry('', { name: 'P', children: [entry('X', { is_show: '0' }), entry('Y', { is_show: '0' })] });
    expect(visibleMenu([parent, entry('A')]).map((m) => m.alias)).toEqual(['A']);
  });

  it("collapses a parent with exactly one visible child into that child, keeping the parent's names and icon", () => {
    const parent = entry('', { name: '首页', en_name: 'Home', icon: 'home', children: [entry('Dashboard', { icon: 'grid' }), entry('Hidden', { is_show: '0' })] });
    const [only] = visibleMenu([parent]);
    expect(only).toMatchObject({ alias: 'Dashboard', uri: '/manage/dashboard', name: '首页', en_name: 'Home', icon: 'home' });
  });

  it('keeps a parent with two visible children as a group, applying the rules inside it', () => {
    const inner = entry('', { name: 'inner', children: [entry('Only')] });
    const parent = entry('', { name: 'P', children: [entry('A'), inner] });
    const [group] = visibleMenu([parent]);
    expect(group.children!.map((c) => [c.alias, c.name])).toEqual([['A', 'A-zh'], ['Only', 'inner']]);
  });

  it('collapses on outside click at 1440 px wide or less', () => {
    expect(collapsesOnOutsideClick(1440)).toBe(true);
    expect(collapsesOnOutsideClick(1441)).toBe(false);
  });
});

describe('dynamic routes from the menu tree (spec §2)', () => {
  it('makes a route of every aliased entry under /manage, hidden ones too, without the query', () => {
    const tree = [entry('', { children: [entry('ScannerDetail', { is_show: '0', uri: '/manage/scanner/detail' }), entry('InnerIframe', { uri: '/manage/setting/iframe?url=x' })] })];
    expect(menuRoutes(tree).map((r) => [r.path, r.alias])).toEqual([['scanner/detail', 'ScannerDetail'], ['setting/iframe', 'InnerIframe']]);
  });

  it('does not route external links (they open a new window)', () => {
    expect(menuRoutes([entry('Docs', { uri: '/api/docs', external_link: 1 })])).toEqual([]);
  });

  it('lands on the first visible leaf', () => {
    const tree = [entry('Hidden', { is_show: '0' }), entry('', { children: [entry('A'), entry('B')] })];
    expect(firstLeaf(tree)?.alias).toBe('A');
  });

  it('labels entries in the chosen language', () => {
    expect(menuLabel(entry('A'), 'en-US')).toBe('A-en');
    expect(menuLabel(entry('A'), 'zh-CN')).toBe('A-zh');
  });
});
