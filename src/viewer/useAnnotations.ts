import { useCallback, useEffect, useRef, useState } from 'react';
import { emptyHistory, mapHistory, record, redo as redoStep, undo as undoStep, type History } from '../core/undoHistory';
import * as remote from './api';
import type { Annotation, AnnotationChange, ShapeBody } from './api';

/** An edit as undo/redo replays it: what the annotation was before and after (null: did not exist). */
interface Edit { before: Annotation | null; after: Annotation | null }

const shapeOf = (a: Annotation): ShapeBody => ({ type: a.type, points: a.points, name: a.name, description: a.description, color: a.color, classification: a.classification });
const changeOf = (a: Annotation): AnnotationChange => ({ points: a.points, name: a.name, description: a.description, color: a.color, classification: a.classification });

/**
 * The annotations of one slide, kept on the server: every change is a request, and the list shows what the
 * server answered. Undo/redo replay edits as requests too; an annotation re-created by undo comes back with a
 * new id, and the history is rewritten to name it.
 */
export function useAnnotations(slideId: number | null, enabled: boolean) {
  const [items, setItems] = useState<Annotation[]>([]);
  const [loaded, setLoaded] = useState(false);
  const [history, setHistory] = useState<History<Edit>>(emptyHistory);
  const historyRef = useRef(history);
  historyRef.current = history;

  useEffect(() => {
    setItems([]);
    setLoaded(false);
    setHistory(emptyHistory());
    if (!slideId || !enabled) return;
    let live = true;
    remote.listAnnotations(slideId).then((list) => { if (live) { setItems(list); setLoaded(true); } }, () => {});
    return () => { live = false; };
  }, [slideId, enabled]);

  const put = (a: Annotation) => setItems((list) => (list.some((x) => x.id === a.id) ? list.map((x) => (x.id === a.id ? a : x)) : [...list, a]));
  const drop = (id: number) => setItems((list) => list.filter((x) => x.id !== id));

  const create = useCallback(async (shape: ShapeBody) => {
    if (!slideId) return null;
    const a = await remote.createAnnotation(slideId, shape);
    put(a);
    setHistory((h) => record(h, { before: null, after: a }));
    return a;
  }, [slideId]);

  const update = useCallback(async (a: Annotation, change: AnnotationChange) => {
    const next = await remote.updateAnnotation(a, change);
    put(next);
    setHistory((h) => record(h, { before: a, after: next }));
    return next;
  }, []);

  const remove = useCallback(async (a: Annotation) => {
    await remote.deleteAnnotation(a.id);
    drop(a.id);
    setHistory((h) => record(h, { before: a, after: null }));
  }, []);

  const importShapes = useCallback(async (shapes: ShapeBody[]) => {
    if (!slideId || !shapes.length) return [];
    const added = await remote.importAnnotations(slideId, shapes);
    setItems((list) => [...list, ...added]);
    return added;
  }, [slideId]);

  /** Brings the server from `from` to `to` (either may be null) and answers what now exists. */
  const apply = useCallback(async (from: Annotation | null, to: Annotation | null): Promise<Annotation | null> => {
    if (!slideId) return null;
    if (from && !to) {
      await remote.deleteAnnotation(from.id);
      drop(from.id);
      return null;
    }
    if (!from && to) {
      const made = await remote.createAnnotation(slideId, shapeOf(to));
      put(made);
      return made;
    }
    const current = items.find((x) => x.id === from!.id) ?? from!;
    const next = await remote.updateAnnotation(current, changeOf(to!));
    put(next);
    return next;
  }, [slideId, items]);

  const replay = useCallback(async (direction: 'undo' | 'redo') => {
    const step = direction === 'undo' ? undoStep(historyRef.current) : redoStep(historyRef.current);
    if (!step) return;
    const { before, after } = step.edit;
    const [from, to] = direction === 'undo' ? [after, before] : [before, after];
    const now = await apply(from, to);
    // A re-created annotation has a new id (and every update a new version): later edits must name the current row.
    const stale = to ?? from;
    const rename = (a: Annotation | null) => (a && stale && now && a.id === stale.id ? { ...a, id: now.id, version: now.version } : a);
    setHistory(mapHistory(step.history, (e) => ({ before: rename(e.before), after: rename(e.after) })));
  }, [apply]);

  return {
    items, loaded, create, update, remove, importShapes,
    undo: () => replay('undo'), redo: () => replay('redo'),
    canUndo: history.past.length > 0, canRedo: history.future.length > 0,
  };
}

export type AnnotationStore = ReturnType<typeof useAnnotations>;
