import { describe, expect, it } from 'vitest';
import { mayView, type SlideHandle } from './tile-service.js';

const handle = (hospitalId: number | undefined, subspecialtyId: number | null | undefined) => ({ hospitalId, subspecialtyId }) as unknown as SlideHandle;
const BREAST = 1;
const GI = 2;

describe('tiles: who may view a slide (hospital and subspecialty directory, spec §6)', () => {
  const breastDoctor = { identification: ['primary_doctor'], hospitalIds: [7], subspecialtyIds: [BREAST] };

  it('a Breast doctor views Breast and unfiled slides of their hospital, not GI ones or another hospital’s', () => {
    expect(mayView(handle(7, BREAST), breastDoctor)).toBe(true);
    expect(mayView(handle(7, null), breastDoctor)).toBe(true);
    expect(mayView(handle(7, GI), breastDoctor)).toBe(false);
    expect(mayView(handle(8, BREAST), breastDoctor)).toBe(false);
  });

  it('an administrator, or a user holding no directories, views every directory’s slides', () => {
    expect(mayView(handle(7, GI), { identification: ['admin'], hospitalIds: [7], subspecialtyIds: [BREAST] })).toBe(true);
    expect(mayView(handle(7, GI), { identification: ['primary_doctor'], hospitalIds: [7] })).toBe(true);
  });

  it('a file of no hospital (once served by name, issue 27) is nobody’s, an administrator’s neither', () => {
    expect(mayView(handle(undefined, undefined), breastDoctor)).toBe(false);
    expect(mayView(handle(undefined, null), { identification: ['admin'], hospitalIds: [7] })).toBe(false);
  });
});
