import { describe, expect, it } from 'vitest';
import { DAY_MS, planDepartment, reached, stepAt } from './department-plan';

const NOW = new Date('2026-12-03T09:30:00Z');

describe('the living department plan', () => {
  it('is the same for the same clock', () => {
    expect(planDepartment(NOW, 'H001', 96, 92, 31)).toEqual(planDepartment(NOW, 'H001', 96, 92, 31));
  });

  it('spans the period, newest first, with numbers after the base demo\'s and unique', () => {
    const plan = planDepartment(NOW, 'H001', 96, 92, 31);
    expect(plan).toHaveLength(96);
    expect(plan.every((c) => c.registered <= NOW && NOW.getTime() - c.registered.getTime() <= 93 * DAY_MS)).toBe(true);
    expect(plan.map((c) => c.registered.getTime())).toEqual([...plan.map((c) => c.registered.getTime())].sort((a, b) => b - a));
    expect(new Set(plan.map((c) => c.pathology_number)).size).toBe(96);
    expect(plan.every((c) => /^[PFC]\d{4}-\d{5}$/.test(c.pathology_number) && Number(c.pathology_number.slice(-5)) > 100)).toBe(true);
  });

  it('has a case at every step, urgent ones, supplements, the clinician\'s requests and a refused specimen', () => {
    const plan = planDepartment(NOW, 'H001', 96, 92, 31);
    const stages = new Set(plan.map((c) => c.stage));
    for (const s of ['registration', 'sample', 'dehydration', 'embeded', 'cut', 'stain', 'cover', 'to_allot', 'to_first', 'draft', 'to_audit', 'returned', 'to_sign', 'signed', 'printed', 'sent'] as const) {
      expect(stages, s).toContain(s);
    }
    expect(plan.some((c) => c.urgent)).toBe(true);
    expect(plan.some((c) => c.supplement)).toBe(true);
    expect(plan.some((c) => c.requested && c.stage === 'sent')).toBe(true);
    expect(plan.some((c) => c.rejectedSpecimen)).toBe(true);
    // Work still open after more than three days: the overdue tile has something.
    expect(plan.some((c) => !reached(c.stage, 'signed') && NOW.getTime() - c.registered.getTime() > 3 * DAY_MS)).toBe(true);
  });

  it('dates no step after the clock', () => {
    const [today] = planDepartment(NOW, 'H001', 96, 92, 31);
    expect(new Date(stepAt(today, 'send', NOW)).getTime()).toBeLessThan(NOW.getTime());
  });
});
