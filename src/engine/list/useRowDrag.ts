import { useState, type DragEvent } from 'react';

/** Rows dragged by their handle onto another row to reorder (`onReorder(from, to)`); the row under the drag is marked. */
export function useRowDrag(enabled: boolean, onReorder?: (from: string, to: string) => void) {
  const [drag, setDrag] = useState<{ from: string; over: string | null } | null>(null);
  return {
    overKey: drag?.over ?? null,
    handle: (key: string) => ({
      draggable: true,
      onDragStart: (e: DragEvent) => { e.dataTransfer.effectAllowed = 'move'; e.dataTransfer.setData('text/plain', key); setDrag({ from: key, over: null }); },
      onDragEnd: () => setDrag(null),
    }),
    target: (key: string) => (enabled && drag ? {
      onDragOver: (e: DragEvent) => { e.preventDefault(); if (drag.over !== key) setDrag({ ...drag, over: key }); },
      onDrop: (e: DragEvent) => { e.preventDefault(); if (drag.from !== key) onReorder?.(drag.from, key); setDrag(null); },
    } : {}),
  };
}
