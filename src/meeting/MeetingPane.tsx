import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { listAnnotations, type Annotation } from '../viewer/api';
import { AnnotationOverlay } from '../viewer/AnnotationOverlay';
import { SlideViewer } from '../viewer/slideViewer';
import { scaleBar } from '../core/viewerScale';

const useStyles = makeStyles({
  pane: { position: 'relative', overflow: 'hidden', backgroundColor: tokens.colorNeutralBackground3, minWidth: 0, minHeight: 0 },
  osd: { position: 'absolute', inset: 0 },
  navigator: {
    position: 'absolute', right: '8px', bottom: '8px', width: '160px', height: '120px', backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke1}`, boxShadow: tokens.shadow8,
  },
  // The viewer's scale bar (ViewerPane.tsx), bottom left.
  scale: {
    position: 'absolute', left: '8px', bottom: '8px', pointerEvents: 'none', backgroundColor: tokens.colorNeutralBackground1, padding: '2px 6px',
    borderRadius: tokens.borderRadiusSmall, boxShadow: tokens.shadow4, fontSize: tokens.fontSizeBase200, fontWeight: tokens.fontWeightSemibold,
  },
  bar: { height: '6px', backgroundColor: tokens.colorNeutralForeground1, border: `1px solid ${tokens.colorNeutralBackground1}` },
});

/**
 * The meeting's slide in the shared OpenSeadragon viewer (src/viewer/slideViewer.ts), with the slide's saved
 * annotations drawn read-only for those who may see them, measured in µm from the slide's `mpp` and under the
 * viewer's scale bar. A follower's mouse does not move the view: the presenter's does. The view's centre and zoom are on the element (data-*) for tests.
 */
export function MeetingPane({ slideId, mpp, presenting, annotations: showAnnotations, onViewer }: {
  slideId: number; mpp: number | null; presenting: boolean; annotations: boolean; onViewer(v: SlideViewer | null): void;
}) {
  const s = useStyles();
  const osdEl = useRef<HTMLDivElement>(null);
  const navEl = useRef<HTMLDivElement>(null);
  const host = useRef<HTMLDivElement>(null);
  const [viewer, setViewer] = useState<SlideViewer | null>(null);
  const [annotations, setAnnotations] = useState<Annotation[]>([]);
  const [, setFrame] = useState(0);
  const [size, setSize] = useState({ w: 0, h: 0 });
  const report = useRef(onViewer);
  report.current = onViewer;

  useEffect(() => {
    const v = new SlideViewer({ element: osdEl.current!, navigator: navEl.current, slideId });
    const el = host.current!;
    // Written straight to the element, not through React: it changes every animation frame.
    const off = v.onChange(() => {
      if (!v.opened) return;
      const st = v.state();
      el.dataset.center = `${st.center.x.toFixed(5)},${st.center.y.toFixed(5)}`;
      el.dataset.zoom = st.imageZoom.toFixed(5);
    });
    // The overlay is redrawn once per animation frame while the view moves.
    let raf = 0;
    const redraw = v.onChange(() => { if (!raf) raf = requestAnimationFrame(() => { raf = 0; setFrame((n) => n + 1); }); });
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    setViewer(v);
    report.current(v);
    return () => { off(); redraw(); cancelAnimationFrame(raf); ro.disconnect(); report.current(null); v.destroy(); setViewer(null); };
  }, [slideId]);

  useEffect(() => {
    let live = true;
    setAnnotations([]);
    if (showAnnotations) void listAnnotations(slideId).then((a) => { if (live) setAnnotations(a); }, () => undefined);
    return () => { live = false; };
  }, [slideId, showAnnotations]);

  useEffect(() => { viewer?.osd.setMouseNavEnabled(presenting); }, [viewer, presenting]);

  const bar = scaleBar(mpp, viewer?.imageZoom() ?? 0);

  return (
    <div ref={host} className={s.pane} data-testid="meeting-pane" data-slide={slideId}>
      <div ref={osdEl} className={s.osd} />
      {annotations.length > 0 && (
        <AnnotationOverlay matrix={viewer?.imageToElement() ?? null} width={size.w} height={size.h} annotations={annotations} draft={null} draftColor="#000000"
          selectedId={null} selecting={false} editable={() => false} mpp={mpp} gridUm={null} onSelect={() => undefined} onMove={() => undefined} />
      )}
      {bar && (
        <div className={s.scale} data-testid="meeting-scale-bar">
          <div className={s.bar} style={{ width: `${bar.widthPx}px` }} />
          {bar.label}
        </div>
      )}
      <div ref={navEl} className={s.navigator} />
    </div>
  );
}
