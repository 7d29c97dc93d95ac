import type { RowSelectionState } from '@tanstack/react-table';
import { useRef, useState, type MouseEvent as ReactMouseEvent, type RefObject } from 'react';
import { boxKeys, rangeKeys, withKeys, type RowSpan } from '../../core/selection';

interface Box { y0: number; y1: number; top: number; add: boolean; base: RowSelectionState }

/**
 * Row selection of the shared table: a click toggles a row, shift-click selects the range from the last
 * clicked row, the header box selects all or none, and a ctrl-drag (⌘-drag) over the rows draws a box whose
 * rows are selected (with shift, added to what was selected).
 */
export function useRowSelection(opts: {
  keys: string[]; selection: RowSelectionState; onSelectionChange(next: RowSelectionState): void;
  selectable?: boolean; body: RefObject<HTMLElement | null>;
}) {
  const { keys, selection, onSelectionChange, selectable, body } = opts;
  const anchor = useRef<string | null>(null);
  const [box, setBox] = useState<Box | null>(null);

  const allSelected = keys.length > 0 && keys.every((k) => selection[k]);
  const someSelected = keys.some((k) => selection[k]);

  const toggleRow = (key: string, e: { shiftKey: boolean }) => {
    if (e.shiftKey && anchor.current) {
      onSelectionChange(withKeys(selection, rangeKeys(keys, anchor.current, key), true));
      return;
    }
    const next = { ...selection };
    if (next[key]) delete next[key];
    else next[key] = true;
    onSelectionChange(next);
    anchor.current = key;
  };
  const toggleAll = () => onSelectionChange(allSelected ? {} : withKeys(selection, keys, true));

  const yIn = (e: ReactMouseEvent) => e.clientY - (body.current?.getBoundingClientRect().top ?? 0);
  /** The rendered rows where they are now (virtual scrolling renders only the visible ones). */
  const rowSpans = (): RowSpan[] => {
    const el = body.current;
    if (!el) return [];
    const origin = el.getBoundingClientRect().top;
    return [...el.querySelectorAll<HTMLElement>('tr[data-row-key]')].map((tr) => {
      const r = tr.getBoundingClientRect();
      return { key: tr.dataset.rowKey!, top: r.top - origin, bottom: r.bottom - origin };
    });
  };
  const boxHandlers = {
    onMouseDown: (e: ReactMouseEvent) => {
      if (!selectable || !(e.ctrlKey || e.metaKey) || e.button !== 0) return;
      e.preventDefault();
      const y = yIn(e);
      setBox({ y0: y, y1: y, top: body.current?.offsetTop ?? 0, add: e.shiftKey, base: selection });
    },
    onMouseMove: (e: ReactMouseEvent) => {
      if (!box) return;
      const y1 = yIn(e);
      setBox({ ...box, y1 });
      onSelectionChange(withKeys(box.add ? box.base : {}, boxKeys(rowSpans(), box.y0, y1), true));
    },
    end: () => setBox(null),
  };
  return { allSelected, someSelected, toggleRow, toggleAll, box, boxHandlers };
}
