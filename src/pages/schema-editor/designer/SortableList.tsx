import { DndContext, KeyboardSensor, PointerSensor, closestCenter, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { makeStyles, tokens } from '@fluentui/react-components';
import { ReOrderDotsVertical20Regular } from '@fluentui/react-icons';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

const useStyles = makeStyles({
  row: {
    display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalS, padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalS}`,
    borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1, flexWrap: 'wrap',
  },
  handle: { cursor: 'grab', display: 'flex', color: tokens.colorNeutralForeground3, touchAction: 'none', border: 'none', background: 'none', padding: 0 },
});

function Row({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  const s = useStyles();
  const { t } = useTranslation();
  const { attributes, listeners, setNodeRef, transform, transition } = useSortable({ id });
  return (
    <div ref={setNodeRef} className={s.row} style={{ transform: CSS.Transform.toString(transform), transition }} data-testid={`sortable-${id}`}>
      <button type="button" className={s.handle} {...attributes} {...listeners} aria-label={t('designer.dragToMove', { name: label })} data-testid={`drag-${id}`}>
        <ReOrderDotsVertical20Regular />
      </button>
      {children}
    </div>
  );
}

/** Rows reordered by dragging their handle (mouse, touch or keyboard: space, arrows, space), with @dnd-kit. */
export function SortableList<T>({ items, idOf, labelOf, render, onMove }: {
  items: T[]; idOf(item: T): string; labelOf(item: T): string; render(item: T, index: number): ReactNode; onMove(from: number, to: number): void;
}) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const ids = items.map(idOf);
  const end = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    onMove(ids.indexOf(String(active.id)), ids.indexOf(String(over.id)));
  };
  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={end}>
      <SortableContext items={ids} strategy={verticalListSortingStrategy}>
        {items.map((item, i) => <Row key={ids[i]} id={ids[i]} label={labelOf(item)}>{render(item, i)}</Row>)}
      </SortableContext>
    </DndContext>
  );
}
