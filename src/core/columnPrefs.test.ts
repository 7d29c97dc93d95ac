import { describe, expect, it } from 'vitest';
import { applyColumnPrefs, moveColumn, toggleColumn } from './columnPrefs.js';

const cols = [{ field: 'id' }, { field: 'name' }, { field: 'phone', hidden: true }, { field: 'email' }];

describe('column order and visibility per route and user (spec §2)', () => {
  it('uses the schema defaults without stored preferences', () => {
    expect(applyColumnPrefs(cols, [])).toEqual([
      { prop: 'id', hidden: false }, { prop: 'name', hidden: false }, { prop: 'phone', hidden: true }, { prop: 'email', hidden: false },
    ]);
  });
  it('applies the stored order and visibility, drops removed columns and slots in new ones', () => {
    const prefs = [{ prop: 'email', hidden: false }, { prop: 'id', hidden: true }, { prop: 'gone', hidden: false }, { prop: 'phone', hidden: false }];
    expect(applyColumnPrefs(cols, prefs)).toEqual([
      { prop: 'email', hidden: false }, { prop: 'id', hidden: true }, { prop: 'name', hidden: false }, { prop: 'phone', hidden: false },
    ]);
  });
  it('moves and toggles', () => {
    const p = applyColumnPrefs(cols, []);
    expect(moveColumn(p, 'email', 'id').map((c) => c.prop)).toEqual(['email', 'id', 'name', 'phone']);
    expect(moveColumn(p, 'id', 'email').map((c) => c.prop)).toEqual(['name', 'phone', 'email', 'id']);
    expect(toggleColumn(p, 'name', true).find((c) => c.prop === 'name')!.hidden).toBe(true);
  });
  it('keeps at least one column visible', () => {
    const one = [{ prop: 'a', hidden: false }, { prop: 'b', hidden: true }];
    expect(toggleColumn(one, 'a', true)).toEqual(one);
  });
});
