import { describe, expect, it } from 'vitest';
import { ADDITIONAL_REQUESTS, afterSlideStep, orderKey, orderNeeds, orderProblem, samplingProblems, SPECIAL_EXAMINATIONS, transitionAllowed, type OrderContext } from './caseLifecycle.js';

describe('case lifecycle (spec §4, §5)', () => {
  it('each transition starts from its phase (and sub-phase)', () => {
    expect(transitionAllowed('receive', { main_phase: 'registration', sub_phase: 'to_receive' })).toBe(true);
    expect(transitionAllowed('receive', { main_phase: 'sample', sub_phase: 'to_sample' })).toBe(false);
    expect(transitionAllowed('make_slides', { main_phase: 'slide_making', sub_phase: 'cut' })).toBe(true);
    expect(transitionAllowed('make_slides', { main_phase: 'slide_making', sub_phase: null })).toBe(false);
    expect(transitionAllowed('distribute', { main_phase: 'diagnosis', sub_phase: 'to_first' })).toBe(false);
    expect(transitionAllowed('change_number', { main_phase: 'archive', sub_phase: null })).toBe(false);
  });

  it('slide making goes dehydration → embeded → cut → stain → cover, then diagnosis awaiting allocation', () => {
    expect(afterSlideStep('dehydration')).toEqual({ main_phase: 'slide_making', sub_phase: 'embeded' });
    expect(afterSlideStep('stain')).toEqual({ main_phase: 'slide_making', sub_phase: 'cover' });
    expect(afterSlideStep('cover')).toEqual({ main_phase: 'diagnosis', sub_phase: 'to_allot' });
  });

  it('each received specimen needs at least one material block; blocks only for received specimens', () => {
    const specimens = [{ id: 1, status: 'received' }, { id: 2, status: 'received' }, { id: 3, status: 'rejected' }];
    expect(samplingProblems(specimens, [{ specimen_id: 1 }, { specimen_id: 2 }, { specimen_id: 2 }])).toEqual({ withoutBlock: [], notReceived: [] });
    expect(samplingProblems(specimens, [{ specimen_id: 1 }, { specimen_id: 3 }, { specimen_id: 9 }])).toEqual({ withoutBlock: [2], notReceived: [3, 9] });
  });

  describe('technical orders', () => {
    const ctx = (over: Partial<OrderContext> = {}): OrderContext => ({
      caseType: 'routine',
      blocks: new Map([[10, { outside: 0 }], [11, { outside: 1 }]]),
      specimens: new Map([[1, { status: 'received' }], [2, { status: 'used_up' }]]),
      openKeys: new Set(),
      ...over,
    });
    const ihc = { category: 'special' as const, order_type: 'immunohistochemisty', block_id: 10, reagent_id: 5 };

    it('accepts complete orders', () => {
      expect(orderProblem([ihc, { category: 'additional', order_type: 'deep_cut', block_id: 10 }, { category: 'additional', order_type: 're_sample', specimen_id: 1 }], ctx())).toBeUndefined();
    });
    it('empty or incomplete technical order blocks submission', () => {
      expect(orderProblem([], ctx())).toEqual({ problem: 'order_empty', index: -1 });
      expect(orderProblem([{ ...ihc, reagent_id: null }], ctx())?.problem).toBe('order_incomplete');
      expect(orderProblem([{ category: 'additional', order_type: 're_cut' }], ctx())?.problem).toBe('order_incomplete');
      expect(orderProblem([{ category: 'additional', order_type: 're_sample' }], ctx())?.problem).toBe('order_incomplete');
      expect(orderProblem([{ category: 'additional', order_type: 'frobnicate' }], ctx())?.problem).toBe('order_incomplete');
      expect(orderProblem([{ ...ihc, block_id: 99 }], ctx())?.problem).toBe('order_incomplete');
    });
    it('outside-hospital wax blocks or slides cannot receive doctor orders', () => {
      expect(orderProblem([{ ...ihc, block_id: 11 }], ctx())).toEqual({ problem: 'order_outside', index: 0 });
      expect(orderProblem([ihc], ctx({ caseType: 'ex_slide' }))?.problem).toBe('order_outside');
    });
    it('a used-up specimen cannot be re-sampled', () => {
      expect(orderProblem([{ category: 'additional', order_type: 're_sample', specimen_id: 2 }], ctx())?.problem).toBe('order_used_up');
    });
    it('repeated orders cannot be added: already open, or twice in one batch', () => {
      expect(orderProblem([ihc], ctx({ openKeys: new Set([orderKey(ihc)]) }))).toEqual({ problem: 'order_repeated', index: 0 });
      expect(orderProblem([ihc, { ...ihc }], ctx())).toEqual({ problem: 'order_repeated', index: 1 });
      expect(orderProblem([ihc, { ...ihc, reagent_id: 6 }], ctx())).toBeUndefined();
    });
  });
});

describe('what an order names (the order form asks exactly what orderProblem needs)', () => {
  const ctx: OrderContext = { caseType: 'routine', blocks: new Map([[1, { outside: 0 }]]), specimens: new Map([[2, { status: 'received' }]]), openKeys: new Set() };
  it('an order with what orderNeeds names is complete; without any one of those it is incomplete', () => {
    const kinds = [...SPECIAL_EXAMINATIONS.map((t) => ['special', t] as const), ...ADDITIONAL_REQUESTS.map((t) => ['additional', t] as const)];
    for (const [category, order_type] of kinds) {
      const need = orderNeeds(category, order_type);
      const full = { category, order_type, ...(need.block ? { block_id: 1 } : {}), ...(need.specimen ? { specimen_id: 2 } : {}), ...(need.reagent ? { reagent_id: 9 } : {}) };
      expect(orderProblem([full], ctx), `${order_type} complete`).toBeUndefined();
      for (const field of ['block_id', 'specimen_id', 'reagent_id'] as const) {
        if (!(field in full)) continue;
        const { [field]: _dropped, ...less } = full;
        expect(orderProblem([less], ctx)?.problem, `${order_type} without ${field}`).toBe('order_incomplete');
      }
    }
  });
});
