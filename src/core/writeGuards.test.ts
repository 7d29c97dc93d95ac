import { describe, expect, it } from 'vitest';
import attendance from '../../schemas/rules/attendance.json';
import dutyEntries from '../../schemas/resources/duty_entries.json';
import { checkRuleSet } from './rulesCheck.js';
import { ruleResolver, type RuleSet } from './rules.js';
import { writeGuardData, writeGuardRefusal, type WriteGuard } from './writeGuards.js';

const resolve = ruleResolver([attendance as RuleSet], () => undefined);
const guards = dutyEntries.writeGuards as WriteGuard[];
const NOW = '2026-12-04T10:00:00.000Z';
const duty = (date: string) => ({ id: 1, member_id: 3, duty_date: date, shift_id: 2 });

describe('write guards (src/core/writeGuards.ts)', () => {
  it('the data a guard reads: the operation, both rows, the request\'s time and day, the roles', () => {
    expect(writeGuardData({ operation: 'update', record: duty('2026-12-05'), old: duty('2026-12-04'), now: NOW, roles: ['admin'] }))
      .toEqual({ operation: 'update', record: duty('2026-12-05'), old: duty('2026-12-04'), now: NOW, today: '2026-12-04', roles: ['admin'] });
    expect(writeGuardData({ operation: 'create', record: {}, old: null, now: NOW }).roles).toEqual([]);
  });

  it('a past day\'s duty is neither made, moved, changed nor deleted; today and later are (spec §5)', () => {
    expect(checkRuleSet(attendance)).toEqual([]);
    const refused = (operation: 'create' | 'update' | 'delete', record: object | null, old: object | null) =>
      writeGuardRefusal(guards, { operation, record: record as never, old: old as never, now: NOW }, resolve)?.field;
    expect(refused('create', duty('2026-12-04'), null)).toBeUndefined();
    expect(refused('create', duty('2026-12-03'), null)).toBe('duty_date');
    expect(refused('update', duty('2026-12-10'), duty('2026-12-05'))).toBeUndefined();
    expect(refused('update', duty('2026-12-10'), duty('2026-12-01'))).toBe('duty_date');
    expect(refused('update', duty('2026-12-01'), duty('2026-12-10'))).toBe('duty_date');
    expect(refused('delete', null, duty('2026-12-04'))).toBeUndefined();
    expect(refused('delete', null, duty('2026-11-30'))).toBe('duty_date');
    expect(guards[0].message['en-US']).toBe('Duty data of past days cannot be changed');
  });

  it('no guards pass every write; a guard whose rule is missing or fails refuses (stricter, never looser)', () => {
    const input = { operation: 'create' as const, record: duty('2020-01-01'), old: null, now: NOW };
    expect(writeGuardRefusal(undefined, input, resolve)).toBeUndefined();
    expect(writeGuardRefusal([], input, resolve)).toBeUndefined();
    const lost = { rule: 'attendance.no_such_rule', message: { 'zh-CN': '不行', 'en-US': 'No' } };
    expect(writeGuardRefusal([lost], { ...input, record: duty('2030-01-01') }, resolve, () => undefined)).toBe(lost);
    const listRule = ruleResolver([{ name: 'x', description: attendance.description, rules: { empty: { map: [[], { var: '' }] } } } as RuleSet], () => undefined);
    expect(writeGuardRefusal([{ rule: 'x.empty', message: lost.message }], input, listRule)).toBeDefined();
  });
});
