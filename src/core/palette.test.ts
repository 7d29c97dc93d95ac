import { describe, expect, it } from 'vitest';
import { PALETTE_NAMES, paletteName } from './palette';
import caseStatus from '../../schemas/rules/case-status.json';

describe('paletteName', () => {
  it('reads the palette names whatever their case and spacing', () => {
    expect(paletteName('gold')).toBe('gold');
    expect(paletteName(' Marigold ')).toBe('marigold');
    expect(paletteName('GREY')).toBe('grey');
  });
  it('draws no colour for anything else', () => {
    expect(paletteName('chartreuse')).toBeNull();
    expect(paletteName('')).toBeNull();
    expect(paletteName(3)).toBeNull();
    expect(paletteName(null)).toBeNull();
    expect(paletteName(undefined)).toBeNull();
  });
  it('knows every colour the shipped case-status rules can give', () => {
    const colours = new Set<string>();
    const walk = (v: unknown) => {
      if (typeof v === 'string') colours.add(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') Object.entries(v).forEach(([k, x]) => k !== 'var' && k !== 'rule' && walk(x));
    };
    for (const name of ['number-colour', 'phase-colour', 'main-phase-colour', 'status-colour'] as const) walk(caseStatus.rules[name]);
    // The rules' strings are the colours plus the sub_phase / main_phase words they compare against.
    const phases = new Set(['to_receive', 'rejected', 'to_sample', 'dehydration', 'embeded', 'cut', 'stain', 'cover', 'to_allot', 'to_first', 'to_audit', 'to_sign', 'apply', 'registration', 'sample', 'slide_making', 'diagnosis', 'archive']);
    const given = [...colours].filter((c) => !phases.has(c));
    expect(given.length).toBeGreaterThan(3);
    for (const c of given) expect(PALETTE_NAMES).toContain(c);
  });
});
