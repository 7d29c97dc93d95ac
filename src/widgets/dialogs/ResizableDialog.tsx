import { Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, makeStyles, mergeClasses, tokens } from '@fluentui/react-components';
import { useCallback, useRef, useState, type PointerEvent as ReactPointerEvent, type ReactNode } from 'react';

/** Spec §9: dialogs 400 px wide; minimum 300 by 100; resize handle zone 10 px. */
export const DIALOG_WIDTH = 400;
export const DIALOG_MIN_WIDTH = 300;
export const DIALOG_MIN_HEIGHT = 100;
export const RESIZE_ZONE = 10;

const useStyles = makeStyles({
  // Fluent's surface is position: fixed (centred by inset 0 + margin auto), which already holds the
  // absolute resize handles; overriding it with relative pinned the dialog to the top of the page.
  surface: { maxWidth: 'none', display: 'flex', flexDirection: 'column', overflow: 'hidden' },
  body: { flexGrow: 1, minHeight: 0, display: 'flex', flexDirection: 'column' },
  content: { flexGrow: 1, minHeight: 0, overflow: 'auto' },
  title: { cursor: 'move', userSelect: 'none', touchAction: 'none' },
  edgeRight: { position: 'absolute', top: 0, right: 0, width: `${RESIZE_ZONE}px`, height: '100%', cursor: 'ew-resize', touchAction: 'none' },
  edgeBottom: { position: 'absolute', left: 0, bottom: 0, height: `${RESIZE_ZONE}px`, width: '100%', cursor: 'ns-resize', touchAction: 'none' },
  corner: {
    position: 'absolute', right: 0, bottom: 0, width: `${RESIZE_ZONE}px`, height: `${RESIZE_ZONE}px`, cursor: 'nwse-resize', touchAction: 'none',
    borderRight: `2px solid ${tokens.colorNeutralStroke1}`, borderBottom: `2px solid ${tokens.colorNeutralStroke1}`,
  },
});

export interface ResizableDialogProps {
  open: boolean;
  onOpenChange(open: boolean): void;
  title: ReactNode;
  children: ReactNode;
  actions?: ReactNode;
  width?: number;
  height?: number;
  className?: string;
  testId?: string;
}

type Gesture = { kind: 'move' | 'right' | 'bottom' | 'corner'; x: number; y: number; box: Box };
interface Box { dx: number; dy: number; width: number; height: number | undefined }

/**
 * The resizable, draggable dialog of spec §2: drag the title to move it; drag the right or bottom
 * edge (a 10 px zone) or the corner to resize it, never below 300 × 100.
 */
export function ResizableDialog({ open, onOpenChange, title, children, actions, width = DIALOG_WIDTH, height, className, testId }: ResizableDialogProps) {
  const s = useStyles();
  const [box, setBox] = useState<Box>({ dx: 0, dy: 0, width, height });
  const gesture = useRef<Gesture | null>(null);
  const surface = useRef<HTMLDivElement>(null);

  const start = useCallback((kind: Gesture['kind']) => (e: ReactPointerEvent<HTMLElement>) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const measured = surface.current?.getBoundingClientRect().height;
    gesture.current = { kind, x: e.clientX, y: e.clientY, box: { ...box, height: box.height ?? measured } };
    (e.target as HTMLElement).setPointerCapture?.(e.pointerId);
  }, [box]);

  const move = useCallback((e: ReactPointerEvent<HTMLElement>) => {
    const g = gesture.current;
    if (!g) return;
    const dx = e.clientX - g.x;
    const dy = e.clientY - g.y;
    if (g.kind === 'move') return setBox({ ...g.box, dx: g.box.dx + dx, dy: g.box.dy + dy });
    setBox({
      ...g.box,
      width: g.kind === 'bottom' ? g.box.width : Math.max(DIALOG_MIN_WIDTH, g.box.width + dx),
      height: g.kind === 'right' ? g.box.height : Math.max(DIALOG_MIN_HEIGHT, (g.box.height ?? DIALOG_MIN_HEIGHT) + dy),
    });
  }, []);
  const end = useCallback(() => { gesture.current = null; }, []);
  const handle = (kind: Gesture['kind']) => ({ onPointerDown: start(kind), onPointerMove: move, onPointerUp: end, onPointerCancel: end });

  return (
    <Dialog open={open} onOpenChange={(_, d) => onOpenChange(d.open)}>
      <DialogSurface ref={surface} className={mergeClasses(s.surface, className)} data-testid={testId}
        style={{ width: box.width, height: box.height, minWidth: DIALOG_MIN_WIDTH, minHeight: DIALOG_MIN_HEIGHT, transform: `translate(${box.dx}px, ${box.dy}px)` }}>
        <DialogBody className={s.body}>
          <DialogTitle className={s.title} {...handle('move')}>{title}</DialogTitle>
          <DialogContent className={s.content}>{children}</DialogContent>
          {actions ? <DialogActions>{actions}</DialogActions> : null}
        </DialogBody>
        <div className={s.edgeRight} {...handle('right')} aria-hidden />
        <div className={s.edgeBottom} {...handle('bottom')} aria-hidden />
        <div className={s.corner} {...handle('corner')} aria-hidden />
      </DialogSurface>
    </Dialog>
  );
}
