import { describe, expect, it } from 'vitest';
import { coversCase, directoriesOutside, directoryRestriction } from './subspecialty';

const BREAST = 1;
const GI = 2;

describe('subspecialty directories (spec §6: directory permissions attach to users)', () => {
  it('limits a user to their directories, de-duplicated', () => {
    expect(directoryRestriction({ identification: ['primary_doctor'], subspecialtyIds: [BREAST, BREAST] })).toEqual([BREAST]);
  });

  it('an empty set, or none at all, is every directory', () => {
    expect(directoryRestriction({ identification: ['primary_doctor'], subspecialtyIds: [] })).toBeUndefined();
    expect(directoryRestriction({ identification: ['primary_doctor'] })).toBeUndefined();
  });

  it('an administrator works in every directory whatever they hold', () => {
    expect(directoryRestriction({ identification: ['admin'], subspecialtyIds: [BREAST] })).toBeUndefined();
    expect(directoryRestriction({ identification: ['x'], roleNames: ['管理员'], subspecialtyIds: [BREAST] })).toBeUndefined();
    // A sub-centre's administrator is not an administrator: their own directories bind them.
    expect(directoryRestriction({ identification: ['sub_center_admin'], roleNames: ['分中心管理员'], subspecialtyIds: [GI] })).toEqual([GI]);
  });

  it('a Breast doctor covers Breast cases and cases filed nowhere, not GI cases', () => {
    expect(coversCase([BREAST], BREAST)).toBe(true);
    expect(coversCase([BREAST], null)).toBe(true);
    expect(coversCase([BREAST], undefined)).toBe(true);
    expect(coversCase([BREAST], GI)).toBe(false);
    expect(coversCase(undefined, GI)).toBe(true);
  });

  it('names the directories a manager may not hand out', () => {
    expect(directoriesOutside([BREAST, GI, GI], [BREAST])).toEqual([GI]);
    expect(directoriesOutside([], [BREAST])).toEqual([]);
  });
});
