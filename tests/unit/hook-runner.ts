/**
 * React's hooks for one component, with its effects run when the test says: the order a busy browser can give
 * (render, then something else lands, then the render's effects), which react-dom cannot be told to take and node
 * has no DOM for anyway. A test mocks 'react' with `fakeReact` and renders a hook with `renderHook`. Only what the
 * hooks under test use: state, effects, memos, refs, context defaults. State updates render again in a microtask,
 * as React batches them, after the effects still due (as React flushes them first); the new render's effects wait
 * for `runEffects` again.
 */
type Slot = { value?: unknown; deps?: readonly unknown[]; hasEffect?: boolean; cleanup?: void | (() => void) };
type Due = { slot: Slot; run: () => void | (() => void) };

interface Instance { slots: Slot[]; index: number; rerender(): void; due: Due[] }
let current: Instance | null = null;

const slot = (): Slot => {
  if (!current) throw new Error('hook called outside renderHook');
  current.slots[current.index] ??= {};
  return current.slots[current.index++]!;
};
const changed = (a: readonly unknown[] | undefined, b: readonly unknown[] | undefined) =>
  !a || !b || a.length !== b.length || a.some((x, i) => !Object.is(x, b[i]));

function useState<T>(init: T | (() => T)): [T, (next: T | ((was: T) => T)) => void] {
  const s = slot();
  const owner = current!;
  if (!('value' in s)) {
    s.value = typeof init === 'function' ? (init as () => T)() : init;
    // The setter, kept with the slot: the same function on every render, as React's.
    (s as Slot & { set?: unknown }).set = (next: T | ((was: T) => T)) => {
      const value = typeof next === 'function' ? (next as (was: T) => T)(s.value as T) : next;
      if (Object.is(value, s.value)) return;
      s.value = value;
      queueMicrotask(() => owner.rerender());
    };
  }
  return [s.value as T, (s as Slot & { set: (next: T | ((was: T) => T)) => void }).set];
}

function useEffect(run: () => void | (() => void), deps?: readonly unknown[]): void {
  const s = slot();
  if (s.hasEffect && !changed(deps, s.deps)) return;
  s.hasEffect = true;
  s.deps = deps;
  current!.due.push({ slot: s, run });
}

/** Effects still due, each after its slot's earlier cleanup. */
function flush(instance: Instance): void {
  for (const { slot: s, run } of instance.due.splice(0)) {
    if (typeof s.cleanup === 'function') s.cleanup();
    s.cleanup = run();
  }
}

function useMemo<T>(make: () => T, deps: readonly unknown[]): T {
  const s = slot();
  if (!('value' in s) || changed(deps, s.deps)) {
    s.value = make();
    s.deps = deps;
  }
  return s.value as T;
}

const useCallback = <T>(fn: T, deps: readonly unknown[]): T => useMemo(() => fn, deps);
const useRef = <T>(value: T): { current: T } => useMemo(() => ({ current: value }), []);
const createContext = <T>(value: T) => ({ _default: value, Provider: 'Provider' });
const useContext = <T>(context: { _default: T }): T => context._default;

export const fakeReact = { useState, useEffect, useMemo, useCallback, useRef, createContext, useContext };

export interface Rendered<T> {
  /** What the hook returned on its latest render. */
  readonly result: T;
  readonly renders: number;
  /** Runs the effects of the renders so far (each one's earlier cleanup first). */
  runEffects(): void;
}

export function renderHook<T>(hook: () => T): Rendered<T> {
  let result: T;
  let renders = 0;
  const instance: Instance = {
    slots: [], index: 0, due: [],
    rerender() {
      // As React: a render's pending effects run before the next render starts.
      if (renders) flush(instance);
      instance.index = 0;
      current = instance;
      try {
        result = hook();
      } finally {
        current = null;
      }
      renders++;
    },
  };
  instance.rerender();
  return {
    get result() { return result; },
    get renders() { return renders; },
    runEffects: () => flush(instance),
  };
}
