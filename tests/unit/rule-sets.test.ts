import { describe, expect, it, vi } from 'vitest';
import type { LayeredRuleSet } from '../../src/engine/rulesApi';

/**
 * The hospital's rule sets as a schema page waits for them (RulesProvider, src/engine/rulesApi.ts), in the orders a
 * browser can give. Under CI's load a page stayed on its spinner for good: the answer to GET /api/rules, asked for
 * by SchemaPage as it loads, landed after RulesProvider's render had read the cache and before that render's
 * effect ran, and the effect, finding it cached, drew nothing again (tests/e2e diagnosis and security-keys).
 */
vi.mock('react', async () => (await import('./hook-runner')).fakeReact);

// GET /api/rules answers when the test says; each call is one request.
const requests: { resolve(sets: LayeredRuleSet[]): void; reject(error: Error): void }[] = [];
vi.mock('../../src/api/client', () => ({
  api: {
    get: (url: string) => {
      if (url !== '/rules') throw new Error(`unexpected GET ${url}`);
      return new Promise((resolve, reject) => {
        requests.push({ resolve: (sets) => resolve({ data: { code: 0, data: sets } }), reject });
      });
    },
  },
  unwrap: async <T,>(request: Promise<{ data: { data: T } }>) => (await request).data.data,
}));

// A hospital of its own per test: the cache keys rule sets by the working hospital.
const session = { hospitalId: 0 };
vi.mock('../../src/store/session', () => ({
  useSession: Object.assign((pick: (s: typeof session) => unknown) => pick(session), { getState: () => session }),
}));

const { renderHook } = await import('./hook-runner');
const { loadRules, useRuleSets } = await import('../../src/engine/rulesApi');

const sets: LayeredRuleSet[] = [{ alias: 'case', version: 1, schema: { name: 'case', description: { 'zh-CN': '病例', 'en-US': 'Case' }, rules: { urgent: { '==': [{ var: 'urgent' }, 1] } } } }];
/** Lets the answer's promise callbacks and the state updates they make (a new render) run. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('a schema page waiting for the rule sets', () => {
  it('draws them when they land between its render and that render’s effect', async () => {
    session.hospitalId = 1;
    requests.length = 0;
    // SchemaPage asks as it loads, before the page is drawn.
    const asked = loadRules();
    const page = renderHook(() => useRuleSets());
    expect(page.result).toBeUndefined();
    requests[0]!.resolve(sets);
    await asked;
    // Only now the render's effect: a busy browser ran it a task later.
    page.runEffects();
    await settle();
    expect(page.result).toBeTypeOf('function');
    expect(page.result!('case.urgent')).toEqual({ '==': [{ var: 'urgent' }, 1] });
    expect(requests).toHaveLength(1);
  });

  it('draws them when they land after the effect', async () => {
    session.hospitalId = 2;
    requests.length = 0;
    const page = renderHook(() => useRuleSets());
    page.runEffects();
    expect(page.result).toBeUndefined();
    requests[0]!.resolve(sets);
    await settle();
    expect(page.result!('case.urgent')).toEqual({ '==': [{ var: 'urgent' }, 1] });
    expect(requests).toHaveLength(1);
  });

  it('draws them in its first render when they are already here, and renders once', async () => {
    session.hospitalId = 3;
    requests.length = 0;
    const asked = loadRules();
    requests[0]!.resolve(sets);
    await asked;
    const page = renderHook(() => useRuleSets());
    expect(page.result!('case.urgent')).toEqual({ '==': [{ var: 'urgent' }, 1] });
    page.runEffects();
    await settle();
    expect(page.renders).toBe(1);
    expect(requests).toHaveLength(1);
  });

  it('falls back to no rules when the load fails (spec §5), rather than waiting', async () => {
    session.hospitalId = 4;
    requests.length = 0;
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const page = renderHook(() => useRuleSets());
    page.runEffects();
    requests[0]!.reject(new Error('network'));
    await settle();
    expect(page.result).toBeTypeOf('function');
    expect(page.result!('case.urgent')).toBeUndefined();
    warn.mockRestore();
  });

  it('asks nothing while skipped (a page inside a provider)', () => {
    session.hospitalId = 5;
    requests.length = 0;
    const page = renderHook(() => useRuleSets(true));
    page.runEffects();
    expect(page.result).toBeUndefined();
    expect(requests).toHaveLength(0);
  });
});
