import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Point } from '../core/annotationGeometry';
import { gammaExponent, type ColourAdjust } from '../core/colourAdjust';
import { baseMagnification, formatMagnification, magnificationAt, scaleBar } from '../core/viewerScale';
import { AnnotationOverlay } from './AnnotationOverlay';
import { FocusOverlay } from './FocusOverlay';
import type { Annotation, DziDescriptor, SlideInfo } from './api';
import { SlideViewer } from './slideViewer';
import { useDrawingTool, type Draft, type Tool } from './useDrawingTool';

const useStyles = makeStyles({
  pane: { position: 'relative', overflow: 'hidden', backgroundColor: tokens.colorNeutralBackground3, minWidth: 0, minHeight: 0, outlineOffset: '-2px' },
  active: { outline: `2px solid ${tokens.colorBrandStroke1}` },
  osd: { position: 'absolute', inset: 0 },
  navigator: {
    position: 'absolute', right: '8px', bottom: '8px', width: '180px', height: '140px', backgroundColor: tokens.colorNeutralBackground1,
    border: `1px solid ${tokens.colorNeutralStroke1}`, boxShadow: tokens.shadow8,
  },
  hud: {
    position: 'absolute', left: '8px', bottom: '8px', display: 'flex', flexDirection: 'column', gap: '4px', pointerEvents: 'none',
    color: tokens.colorNeutralForeground1, fontSize: tokens.fontSizeBase200, fontWeight: tokens.fontWeightSemibold,
  },
  chip: { backgroundColor: tokens.colorNeutralBackground1, padding: '2px 6px', borderRadius: tokens.borderRadiusSmall, boxShadow: tokens.shadow4, alignSelf: 'flex-start' },
  bar: { height: '6px', backgroundColor: tokens.colorNeutralForeground1, border: `1px solid ${tokens.colorNeutralBackground1}` },
  title: { position: 'absolute', left: '8px', top: '8px', pointerEvents: 'none' },
  error: { position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: tokens.colorPaletteRedForeground1 },
});

export interface PaneProps {
  index: number;
  slide: SlideInfo;
  /** Fetched beside the slide's information; read once, when the pane's viewer is made. */
  descriptor: DziDescriptor | null;
  active: boolean;
  tool: Tool;
  color: string;
  annotations: Annotation[];
  selectedId: number | null;
  gridUm: number | null;
  colour: ColourAdjust;
  touch: boolean;
  showTitle: boolean;
  /** Draw the focus check's heat map. */
  focus?: boolean;
  editable(a: Annotation): boolean;
  onActivate(): void;
  onViewer(v: SlideViewer | null): void;
  onDraw(d: Draft): void;
  onTooSmall(): void;
  onSelect(id: number | null): void;
  onMove(a: Annotation, points: Point[]): void;
  /** The text annotation being typed in place (AnnotationOverlay), and where its words go. */
  typingId?: number | null;
  onTyped?(a: Annotation, text: string | null): void;
  /** The view moved (pan, zoom, rotation, flip): linked panes follow. */
  onViewChange(): void;
}

/** One slide in the viewer: OpenSeadragon, the annotation overlay, navigator, scale bar and magnification. */
export function ViewerPane(p: PaneProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const host = useRef<HTMLDivElement>(null);
  const osdEl = useRef<HTMLDivElement>(null);
  const navEl = useRef<HTMLDivElement>(null);
  const [viewer, setViewer] = useState<SlideViewer | null>(null);
  const [, setFrame] = useState(0);
  const [failed, setFailed] = useState(false);
  const [size, setSize] = useState({ w: 0, h: 0 });
  const gammaId = `dsms-gamma-${p.index}`;
  const callbacks = useRef(p);
  callbacks.current = p;

  useEffect(() => {
    const v = new SlideViewer({ element: osdEl.current!, navigator: p.touch ? null : navEl.current, slideId: p.slide.id, descriptor: callbacks.current.descriptor, touch: p.touch });
    let raf = 0;
    // One React render per animation frame, however many OpenSeadragon events arrive in it.
    const off = v.onChange(() => {
      callbacks.current.onViewChange();
      if (!raf) raf = requestAnimationFrame(() => { raf = 0; setFrame((n) => n + 1); });
    });
    v.osd.addHandler('open-failed', () => setFailed(true));
    setViewer(v);
    callbacks.current.onViewer(v);
    return () => {
      off();
      cancelAnimationFrame(raf);
      callbacks.current.onViewer(null);
      v.destroy();
      setViewer(null);
    };
  }, [p.slide.id, p.touch]);

  useEffect(() => {
    const el = host.current!;
    const ro = new ResizeObserver(() => setSize({ w: el.clientWidth, h: el.clientHeight }));
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  useEffect(() => { viewer?.setColour(p.colour, gammaId); }, [viewer, p.colour, gammaId]);

  const draft = useDrawingTool(p.active ? viewer : null, p.tool, (d) => callbacks.current.onDraw(d), () => callbacks.current.onTooSmall());
  const zoom = viewer?.imageZoom() ?? 0;
  const bar = scaleBar(p.slide.mpp, zoom);
  const mag = magnificationAt(zoom, baseMagnification(p.slide.objective_power, p.slide.mpp));

  return (
    <div ref={host} className={`${s.pane} ${p.active ? s.active : ''}`} data-testid={`viewer-pane-${p.index}`} data-slide={p.slide.id}
      data-magnification={zoom ? mag.toFixed(3) : ''} data-sharp-at={viewer?.firstSharpAt?.toFixed(1) ?? undefined} data-open-at={viewer?.openedAt?.toFixed(1) ?? undefined}
      data-settled={viewer?.settled() ? 'true' : 'false'} onPointerDownCapture={() => { if (!p.active) p.onActivate(); }}>
      <svg width={0} height={0} style={{ position: 'absolute' }} aria-hidden>
        <filter id={gammaId}>
          <feComponentTransfer>
            <feFuncR type="gamma" amplitude={1} exponent={gammaExponent(p.colour)} offset={0} />
            <feFuncG type="gamma" amplitude={1} exponent={gammaExponent(p.colour)} offset={0} />
            <feFuncB type="gamma" amplitude={1} exponent={gammaExponent(p.colour)} offset={0} />
          </feComponentTransfer>
        </filter>
      </svg>
      <div ref={osdEl} className={s.osd} data-testid="osd" />
      {p.focus && <FocusOverlay slideId={p.slide.id} matrix={viewer?.imageToElement() ?? null} />}
      <AnnotationOverlay matrix={viewer?.imageToElement() ?? null} width={size.w} height={size.h} annotations={p.annotations} draft={draft} draftColor={p.color}
        selectedId={p.selectedId} selecting={p.active && p.tool === 'select'} editable={p.editable} mpp={p.slide.mpp} gridUm={p.gridUm}
        onSelect={p.onSelect} onMove={p.onMove} typingId={p.typingId} onTyped={p.onTyped} />
      {!p.touch && <div ref={navEl} className={s.navigator} data-testid="navigator" />}
      {p.showTitle && <div className={`${s.title} ${s.chip}`}>{p.slide.name}</div>}
      <div className={s.hud}>
        {zoom > 0 && <span className={s.chip} data-testid="current-magnification">{t('viewer.magnification.current', { value: formatMagnification(mag) })}</span>}
        {bar && (
          <span className={s.chip} data-testid="scale-bar">
            <div className={s.bar} style={{ width: `${bar.widthPx}px` }} />
            {bar.label}
          </span>
        )}
      </div>
      {failed && <div className={s.error} role="alert">{t('viewer.openFailed')}</div>}
    </div>
  );
}
