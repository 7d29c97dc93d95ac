import { useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { boundsOf, formatArea, formatLength, measure, outlineOf, type Point } from '../core/annotationGeometry';
import { applyAffine, gridLines, invertAffine, affineScale, type Affine } from '../core/viewerScale';
import type { Annotation } from './api';
import type { Draft } from './useDrawingTool';

interface Props {
  matrix: Affine | null;
  width: number;
  height: number;
  annotations: Annotation[];
  draft: Draft | null;
  draftColor: string;
  selectedId: number | null;
  /** Shapes take the pointer (select, move, edit vertices) only in the select tool. */
  selecting: boolean;
  editable: (a: Annotation) => boolean;
  mpp: number | null;
  gridUm: number | null;
  onSelect(id: number | null): void;
  onMove(a: Annotation, points: Point[]): void;
  /** The text annotation just placed, whose words are typed in place; its input answers `onTyped` (null: left as it was). */
  typingId?: number | null;
  onTyped?(a: Annotation, text: string | null): void;
}

const HANDLE = 5;

/**
 * The annotations over the slide as SVG: shapes in image pixels under one transform (OpenSeadragon's
 * image → element map; strokes keep their screen width), labels and vertex handles in screen pixels so they
 * stay readable at any zoom and rotation. The grid is drawn here too, every `gridUm` µm.
 */
export function AnnotationOverlay(p: Props) {
  const svgRef = useRef<SVGSVGElement>(null);
  const [moving, setMoving] = useState<{ id: number; points: Point[] } | null>(null);
  const drag = useRef<{ a: Annotation; start: Point; vertex: number | null } | null>(null);
  if (!p.matrix) return null;
  const m = p.matrix;
  const inv = invertAffine(m);
  const toImage = (e: ReactPointerEvent): Point => {
    const r = svgRef.current!.getBoundingClientRect();
    return applyAffine(inv, [e.clientX - r.left, e.clientY - r.top]);
  };
  const screen = (pt: Point) => applyAffine(m, pt);

  const begin = (e: ReactPointerEvent, a: Annotation, vertex: number | null) => {
    e.stopPropagation();
    p.onSelect(a.id);
    if (!p.editable(a)) return;
    (e.target as Element).setPointerCapture(e.pointerId);
    drag.current = { a, start: toImage(e), vertex };
  };
  const move = (e: ReactPointerEvent) => {
    const d = drag.current;
    if (!d) return;
    const now = toImage(e);
    const dx = now[0] - d.start[0];
    const dy = now[1] - d.start[1];
    const points = d.vertex === null
      ? d.a.points.map(([x, y]) => [x + dx, y + dy] as Point)
      : d.a.points.map((pt, i) => (i === d.vertex ? now : pt));
    setMoving({ id: d.a.id, points });
  };
  const end = () => {
    const d = drag.current;
    drag.current = null;
    if (d && moving && moving.id === d.a.id) p.onMove(d.a, moving.points);
    setMoving(null);
  };

  const grid = p.gridUm && p.mpp ? gridIn(m, inv, p.width, p.height, p.mpp, p.gridUm) : null;
  const shown = p.annotations.map((a) => (moving?.id === a.id ? { ...a, points: moving.points } : a));
  const selected = shown.find((a) => a.id === p.selectedId) ?? null;

  return (
    <svg ref={svgRef} data-testid="annotation-overlay" width={p.width} height={p.height}
      style={{ position: 'absolute', inset: 0, pointerEvents: 'none', overflow: 'hidden' }}
      onPointerMove={move} onPointerUp={end} onPointerCancel={end}>
      <g transform={`matrix(${m.a} ${m.b} ${m.c} ${m.d} ${m.e} ${m.f})`}>
        {grid && (
          <g data-testid="grid" stroke="rgba(0,0,0,0.35)" strokeWidth={1} vectorEffect="non-scaling-stroke">
            {grid.xs.map((x) => <line key={`x${x}`} x1={x} x2={x} y1={grid.box.minY} y2={grid.box.maxY} vectorEffect="non-scaling-stroke" />)}
            {grid.ys.map((y) => <line key={`y${y}`} y1={y} y2={y} x1={grid.box.minX} x2={grid.box.maxX} vectorEffect="non-scaling-stroke" />)}
          </g>
        )}
        {shown.map((a) => (
          <Shape key={a.id} type={a.type} points={a.points} color={a.color} selected={a.id === p.selectedId} scale={affineScale(m)}
            interactive={p.selecting} onPointerDown={(e) => begin(e, a, null)} testId={`annotation-${a.id}`} />
        ))}
        {p.draft && <Shape type={p.draft.type} points={p.draft.points} color={p.draftColor} selected={false} scale={affineScale(m)} interactive={false} testId="annotation-draft" />}
      </g>
      {shown.map((a) => (a.type === 'text' || a.type === 'ruler' || a.id === p.selectedId) && a.id !== p.typingId && <Label key={`l${a.id}`} a={a} mpp={p.mpp} screen={screen} />)}
      {shown.filter((a) => a.id === p.typingId && a.type === 'text').map((a) => (
        <TextInPlace key={`t${a.id}`} a={a} at={screen(a.points[a.points.length - 1]!)} onDone={(text) => p.onTyped?.(a, text)} />
      ))}
      {p.draft && <Label a={{ ...p.draft, name: '', color: p.draftColor }} mpp={p.mpp} screen={screen} testId="draft-measure" />}
      {p.selecting && selected && p.editable(selected) && selected.points.map((pt, i) => {
        const [x, y] = screen(pt);
        return <rect key={i} data-testid="vertex-handle" x={x - HANDLE} y={y - HANDLE} width={HANDLE * 2} height={HANDLE * 2} fill="#fff" stroke="#0078d4"
          style={{ pointerEvents: 'all', cursor: 'move' }} onPointerDown={(e) => begin(e, selected, i)} />;
      })}
    </svg>
  );
}

function Shape({ type, points, color, selected, scale, interactive, onPointerDown, testId }: {
  type: Annotation['type']; points: Point[]; color: string; selected: boolean; scale: number; interactive: boolean; testId: string;
  onPointerDown?: (e: ReactPointerEvent) => void;
}) {
  const common = {
    'data-testid': testId, stroke: color, strokeWidth: selected ? 3 : 2, vectorEffect: 'non-scaling-stroke' as const,
    style: { pointerEvents: interactive ? ('visiblePainted' as const) : ('none' as const), cursor: interactive ? 'pointer' : undefined },
    onPointerDown,
  };
  const path = points.map(([x, y]) => `${x},${y}`).join(' ');
  // Screen-size marks (a point's dot, an arrow's head) in image units at this zoom.
  const px = (n: number) => n / (scale || 1);
  switch (type) {
    case 'rectangle':
    case 'polygon':
    case 'freehand':
      return <polygon {...common} points={outlineOf(type, points).map(([x, y]) => `${x},${y}`).join(' ')} fill="rgba(0,0,0,0.01)" />;
    case 'ellipse': {
      const b = boundsOf(points);
      return <ellipse {...common} cx={(b.minX + b.maxX) / 2} cy={(b.minY + b.maxY) / 2} rx={(b.maxX - b.minX) / 2} ry={(b.maxY - b.minY) / 2} fill="rgba(0,0,0,0.01)" />;
    }
    case 'polyline':
      return <polyline {...common} points={path} fill="none" />;
    case 'ruler':
      return <polyline {...common} points={path} fill="none" strokeDasharray="6 3" />;
    case 'arrow': {
      const [a, b] = [points[0]!, points[1]!];
      const ang = Math.atan2(b[1] - a[1], b[0] - a[0]);
      const head = px(14);
      const wing = (s: number): Point => [b[0] - head * Math.cos(ang + s * 0.45), b[1] - head * Math.sin(ang + s * 0.45)];
      const [w1, w2] = [wing(1), wing(-1)];
      return <g {...common} fill="none"><line x1={a[0]} y1={a[1]} x2={b[0]} y2={b[1]} vectorEffect="non-scaling-stroke" /><polyline points={`${w1[0]},${w1[1]} ${b[0]},${b[1]} ${w2[0]},${w2[1]}`} vectorEffect="non-scaling-stroke" /></g>;
    }
    case 'point':
    case 'text':
      return <circle {...common} cx={points[0]![0]} cy={points[0]![1]} r={px(type === 'point' ? 5 : 3)} fill={color} />;
  }
}

/**
 * Where a text annotation's words are typed: an input at the label's place, focused with its default words selected,
 * so typing replaces them. Enter or leaving it keeps what was typed; Escape keeps the annotation as it was.
 */
function TextInPlace({ a, at, onDone }: { a: Annotation; at: [number, number]; onDone(text: string | null): void }) {
  const done = useRef(false);
  const finish = (text: string | null) => {
    if (done.current) return;
    done.current = true;
    onDone(text);
  };
  return (
    <foreignObject x={at[0] + 4} y={at[1] - 30} width={240} height={28} style={{ pointerEvents: 'all', overflow: 'visible' }}>
      <input data-testid="annotation-text-input" defaultValue={a.name} maxLength={100}
        ref={(el) => { if (el && !done.current && document.activeElement !== el) { el.focus(); el.select(); } }}
        style={{ font: '600 13px sans-serif', color: a.color, width: '100%', boxSizing: 'border-box', padding: '2px 4px', border: `1px solid ${a.color}`, borderRadius: 2 }}
        onPointerDown={(e) => e.stopPropagation()}
        onKeyDown={(e) => {
          e.stopPropagation();
          if (e.key === 'Enter') finish(e.currentTarget.value);
          if (e.key === 'Escape') finish(null);
        }}
        onBlur={(e) => finish(e.currentTarget.value)} />
    </foreignObject>
  );
}

function Label({ a, mpp, screen, testId }: { a: Pick<Annotation, 'type' | 'points' | 'name' | 'color'>; mpp: number | null; screen: (p: Point) => [number, number]; testId?: string }) {
  const m = measure(a.type, a.points, mpp);
  const text = a.type === 'text' ? a.name
    : m.length !== undefined ? formatLength(m.length, m.calibrated)
      : m.area !== undefined ? `${formatArea(m.area, m.calibrated)} · ${formatLength(m.perimeter ?? 0, m.calibrated)}`
        : a.name;
  if (!text) return null;
  const anchor = a.points[a.points.length - 1]!;
  const [x, y] = screen(anchor);
  return (
    <text data-testid={testId} x={x + 8} y={y - 8} fill={a.color} stroke="#fff" strokeWidth={3} paintOrder="stroke" fontSize={13} fontWeight={600}>{text}</text>
  );
}

function gridIn(m: Affine, inv: Affine, w: number, h: number, mpp: number, stepUm: number) {
  const corners = [[0, 0], [w, 0], [0, h], [w, h]].map((c) => applyAffine(inv, c as [number, number]));
  const box = boundsOf(corners);
  return { box, ...gridLines(box, mpp, stepUm, affineScale(m)) };
}
