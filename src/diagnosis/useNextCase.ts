import { useCallback, useEffect, useRef } from 'react';
import { useNavigate } from 'react-router-dom';
import { notify } from '../api/notify';
import { nextCaseAt } from './api';

/**
 * "Next case" (spec §4 work lists): the following case at the stage this one had when the editor opened (after a
 * first diagnosis is submitted, the next case still waiting for one). Unsaved text is saved first. Alt+↓ does the same.
 */
export function useNextCase(caseId: number, stage: string | undefined, beforeLeaving: () => Promise<unknown>, noneText: string): () => Promise<void> {
  const navigate = useNavigate();
  const stageAtOpen = useRef<{ caseId: number; stage: string } | null>(null);
  if (stage && stageAtOpen.current?.caseId !== caseId) stageAtOpen.current = { caseId, stage };

  const go = useCallback(async () => {
    const at = stageAtOpen.current;
    if (!at) return;
    await beforeLeaving();
    const next = await nextCaseAt(caseId, at.stage);
    if (next === null) notify(noneText, 'info');
    else navigate(`/diagnosis/${next}`);
  }, [caseId, beforeLeaving, navigate, noneText]);

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.altKey && !e.ctrlKey && !e.metaKey && e.key === 'ArrowDown') {
        e.preventDefault();
        void go();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [go]);
  return go;
}
