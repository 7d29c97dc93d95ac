import { useEffect, useRef, useState } from 'react';
import { largeEnough, type AnnotationType, type Point } from '../core/annotationGeometry';
import type { PointerHandlers, SlideViewer } from './slideViewer';

export type Tool = 'pan' | 'select' | AnnotationType;

/** Tools drawn by dragging from one corner or end to the other. */
const DRAG_TWO_POINT: readonly Tool[] = ['rectangle', 'ellipse', 'arrow', 'ruler'];
/** Tools drawn by clicking vertices, finished by a double click or Enter. */
const CLICK_VERTICES: readonly Tool[] = ['polygon', 'polyline'];

export interface Draft { type: AnnotationType; points: Point[] }

/**
 * The drawing tools on one viewer: turns presses, drags and clicks (in image pixels) into a draft shape and,
 * once finished, hands it to `onFinish`. A shape under the minimum size is not sent: `onTooSmall` says so.
 */
export function useDrawingTool(viewer: SlideViewer | null, tool: Tool, onFinish: (d: Draft) => void, onTooSmall: () => void) {
  const [draft, setDraft] = useState<Draft | null>(null);
  const draftRef = useRef<Draft | null>(null);
  const finishRef = useRef({ onFinish, onTooSmall });
  finishRef.current = { onFinish, onTooSmall };

  const set = (d: Draft | null) => {
    draftRef.current = d;
    setDraft(d);
  };
  const finish = () => {
    const d = draftRef.current;
    set(null);
    if (!d) return;
    if (!largeEnough(d.type, d.points)) finishRef.current.onTooSmall();
    else finishRef.current.onFinish(d);
  };

  useEffect(() => {
    set(null);
    if (!viewer) return;
    if (tool === 'pan' || tool === 'select') {
      viewer.setPointerHandlers(null);
      return;
    }
    const type = tool;
    const handlers: PointerHandlers = {
      press(p) {
        if (DRAG_TWO_POINT.includes(type)) set({ type, points: [p, p] });
        else if (type === 'freehand') set({ type, points: [p] });
        return false;
      },
      drag(p) {
        const d = draftRef.current;
        if (!d) return false;
        if (DRAG_TWO_POINT.includes(type)) set({ type, points: [d.points[0]!, p] });
        else if (type === 'freehand') set({ type, points: [...d.points, p] });
        else return false;
        return true;
      },
      release() {
        if (DRAG_TWO_POINT.includes(type) || type === 'freehand') finish();
        return false;
      },
      click(p) {
        if (type === 'point' || type === 'text') {
          set({ type, points: [p] });
          finish();
          return true;
        }
        if (CLICK_VERTICES.includes(type)) {
          const d = draftRef.current;
          set({ type, points: d ? [...d.points, p] : [p] });
          return true;
        }
        return DRAG_TWO_POINT.includes(type) || type === 'freehand';
      },
      doubleClick() {
        if (!CLICK_VERTICES.includes(type)) return false;
        // The two clicks of a double click each added the same vertex: keep one.
        const d = draftRef.current;
        if (d && d.points.length > 1) set({ type, points: d.points.slice(0, -1) });
        finish();
        return true;
      },
    };
    viewer.setPointerHandlers(handlers);
    const onKey = (e: KeyboardEvent) => {
      if (e.key === 'Escape') set(null);
      if (e.key === 'Enter' && CLICK_VERTICES.includes(type)) finish();
    };
    window.addEventListener('keydown', onKey);
    return () => {
      window.removeEventListener('keydown', onKey);
      viewer.setPointerHandlers(null);
    };
    // finish/set only touch refs and state setters.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [viewer, tool]);

  return draft;
}
