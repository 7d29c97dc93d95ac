import { useCallback, useState, type ReactNode } from 'react';

/**
 * The open-and-await shape of an action's dialog: `const [dialog, ask] = useAsking(Host); if (await ask(question)) …`.
 * The host is mounted only while asking (its options load then, its state starts clean) and calls `done(true)` once
 * its work succeeded, `done(false)` when cancelled; `ask` resolves with that.
 */
export function useAsking<Q>(render: (question: Q, done: (ok: boolean) => void) => ReactNode): [ReactNode, (question: Q) => Promise<boolean>] {
  const [asking, setAsking] = useState<{ question: Q; resolve(ok: boolean): void } | null>(null);
  const ask = useCallback((question: Q) => new Promise<boolean>((resolve) => setAsking({ question, resolve })), []);
  const done = (ok: boolean) => {
    asking?.resolve(ok);
    setAsking(null);
  };
  return [asking ? render(asking.question, done) : null, ask];
}
