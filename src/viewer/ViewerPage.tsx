import { makeStyles, Spinner, Tab, TabList, Text, tokens } from '@fluentui/react-components';
import { Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router-dom';
import { notify } from '../api/notify';
import { isAdmin } from '../core/admin';
import { isGranted } from '../core/actions';
import { useGrants } from '../engine/useGrants';
import type { Point } from '../core/annotationGeometry';
import { boundsOf } from '../core/annotationGeometry';
import { NEUTRAL_COLOUR, type ColourAdjust } from '../core/colourAdjust';
import { baseMagnification, imageZoomFor } from '../core/viewerScale';
import { lazyChunk } from '../shell/lazyChunk';
import { takeEarlyDescriptor, takeEarlyOpen } from '../shell/viewerEarly';
import { useSession } from '../store/session';
import { AnnotationPanel } from './AnnotationPanel';
import { caseSlides, fetchDescriptor, locateSlide, openSlide, type Annotation, type CaseSlide, type DziDescriptor, type SlideInfo } from './api';
import { ShortcutHelp } from './ShortcutHelp';
import { SlideInfoPanel } from './SlideInfoPanel';
import { fromTextField, SHORTCUTS, type ShortcutAction } from './shortcuts';
import type { SlideViewer } from './slideViewer';
import { captureView, setCapture } from './snapshot';
import { useAnnotations } from './useAnnotations';
import type { Draft, Tool } from './useDrawingTool';
import { ViewerPane } from './ViewerPane';
import { ViewerToolbar } from './ViewerToolbar';

// Asked for when its tab is chosen: its controls (combobox, spin button, checkbox) are not on the way to the first sharp view.
const SharePanel = lazyChunk<{ slideId: number }>(() => import('./SharePanel').then((m) => ({ default: m.SharePanel })));

const useStyles = makeStyles({
  root: { position: 'fixed', inset: 0, display: 'flex', flexDirection: 'column', backgroundColor: tokens.colorNeutralBackground2 },
  body: { flex: 1, display: 'flex', minHeight: 0 },
  panes: { flex: 1, display: 'grid', gap: '2px', minWidth: 0 },
  side: { width: '320px', display: 'flex', flexDirection: 'column', gap: '8px', padding: '8px', overflow: 'hidden', borderLeft: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1 },
  strip: { display: 'flex', gap: '6px', padding: '6px 8px', overflowX: 'auto', borderTop: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1 },
  thumb: {
    display: 'flex', flexDirection: 'column', alignItems: 'center', gap: '2px', padding: '4px', cursor: 'pointer', border: `2px solid transparent`,
    borderRadius: tokens.borderRadiusMedium, background: 'none', color: 'inherit', fontSize: tokens.fontSizeBase200, maxWidth: '120px',
  },
  thumbOn: { border: `2px solid ${tokens.colorBrandStroke1}` },
  thumbImg: { width: '96px', height: '64px', objectFit: 'cover', backgroundColor: tokens.colorNeutralBackground3 },
  center: { margin: 'auto' },
});

type Mode = 'full' | 'outer' | 'h5';
const PANE_SLOTS = [0, 1, 2, 3] as const;
const ZOOM_STEP = 2;

/**
 * The slide viewer of spec §2 for every viewer route: /kfb/:pid/:id, /kfb/case/:id (a case's slides with a
 * strip), /slide/view and /view (?id=), /outer/view (clinical, read-only), /h5/view (touch, read-only). Up to
 * four panes, each its own slide, optionally linked; annotations of the active pane in the side panel.
 */
export default function ViewerPage() {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const params = useParams();
  const [query] = useSearchParams();
  const user = useSession((st) => st.user);
  const grants = useGrants();
  const mode: Mode = pathname.startsWith('/outer/') ? 'outer' : pathname.startsWith('/h5/') ? 'h5' : 'full';
  const caseRoute = pathname.startsWith('/kfb/case/');
  // /kfb/path?path=… and /kfb/section/:case/:section name no slide id: the server finds it (and checks access).
  const pathRoute = pathname === '/kfb/path';
  const sectionRoute = pathname.startsWith('/kfb/section/');
  const [located, setLocated] = useState<number | null>(null);
  const firstSlide = pathRoute || sectionRoute ? located
    : Number(caseRoute ? query.get('slide') : (params.id ?? query.get('id') ?? query.get('slide_id'))) || null;
  const routeCase = Number(caseRoute || sectionRoute ? params.id : params.pid) || null;
  const mayAnnotate = isGranted('slide_annotation_view', grants);
  const readOnly = mode !== 'full' || !mayAnnotate;

  const [paneSlides, setPaneSlides] = useState<(number | null)[]>([firstSlide, null, null, null]);
  const [infos, setInfos] = useState<Record<number, SlideInfo>>({});
  const [descriptors, setDescriptors] = useState<Record<number, DziDescriptor | null>>({});
  const described = useRef(new Set<number>());
  const [strip, setStrip] = useState<CaseSlide[]>([]);
  const [failed, setFailed] = useState(false);
  const [active, setActive] = useState(0);
  const [split, setSplit] = useState<1 | 2 | 4>(1);
  const [linked, setLinked] = useState(true);
  const [tool, setTool] = useState<Tool>('pan');
  const [color, setColor] = useState('#ff0000');
  const [gridUm, setGridUm] = useState<number | null>(null);
  /** The automatic focus check's heat map over every pane (issue 16). */
  const [focus, setFocus] = useState(false);
  const [colour, setColour] = useState<ColourAdjust>(NEUTRAL_COLOUR);
  const [rotation, setRotationState] = useState(0);
  const [flipped, setFlipped] = useState(false);
  const [selectedId, setSelectedId] = useState<number | null>(null);
  // A text annotation just placed: its words are typed where it stands (AnnotationOverlay's input).
  const [typingId, setTypingId] = useState<number | null>(null);
  const [help, setHelp] = useState(false);
  const [tab, setTab] = useState<'info' | 'annotations' | 'share'>('annotations');
  const viewers = useRef<(SlideViewer | null)[]>([null, null, null, null]);
  useEffect(() => { performance.mark('viewer:page'); }, []);
  const rootRef = useRef<HTMLDivElement>(null);

  const stores = [
    useAnnotations(paneSlides[0] ?? null, mayAnnotate && !!infos[paneSlides[0] ?? 0]),
    useAnnotations(split > 1 ? paneSlides[1] ?? null : null, mayAnnotate && !!infos[paneSlides[1] ?? 0]),
    useAnnotations(split > 2 ? paneSlides[2] ?? null : null, mayAnnotate && !!infos[paneSlides[2] ?? 0]),
    useAnnotations(split > 2 ? paneSlides[3] ?? null : null, mayAnnotate && !!infos[paneSlides[3] ?? 0]),
  ];
  const store = stores[active]!;
  const activeSlide = infos[paneSlides[active] ?? 0] ?? null;

  const locateKey = pathRoute ? `path:${query.get('path') ?? ''}` : sectionRoute ? `section:${params.id}/${params.section}` : '';
  useEffect(() => {
    if (!locateKey) return;
    const path = query.get('path');
    if (pathRoute && !path) { setFailed(true); return; }
    locateSlide(pathRoute ? { path: path! } : { caseId: Number(params.id), section: params.section ?? '' }).then((id) => {
      setLocated(id);
      setPaneSlides((p) => [id, ...p.slice(1)]);
    }, () => setFailed(true));
  }, [locateKey]); // eslint-disable-line react-hooks/exhaustive-deps

  // The case's slides: for the strip, and to fill the panes of a split screen. A case route opens its first slide.
  const caseId = routeCase ?? infos[firstSlide ?? 0]?.case_id ?? null;
  useEffect(() => {
    if (!caseId) return;
    caseSlides(caseId).then((list) => {
      setStrip(list);
      if (caseRoute && !firstSlide && list[0]) setPaneSlides((p) => [list[0]!.id, ...p.slice(1)]);
    }, () => {});
  }, [caseId, caseRoute, firstSlide]);

  // Each slide shown is opened once on the server (its information; the view is logged there).
  const shown = paneSlides.slice(0, split).filter((x): x is number => !!x);
  useEffect(() => {
    for (const id of shown) {
      if (!described.current.has(id)) {
        described.current.add(id);
        const settle = (d: DziDescriptor | null) => setDescriptors((m) => ({ ...m, [id]: d }));
        (takeEarlyDescriptor(id) ?? fetchDescriptor(id)).then(settle, () => settle(null));
      }
      if (infos[id]) continue;
      // Asked for at boot on a direct visit; asked again (with its error shown) if that failed.
      (takeEarlyOpen(id)?.catch(() => openSlide(id)) ?? openSlide(id)).then((info) => setInfos((m) => ({ ...m, [id]: info })), () => setFailed(true));
    }
  }, [shown.join(','), infos]); // eslint-disable-line react-hooks/exhaustive-deps

  const viewer = () => viewers.current[active] ?? null;
  const changeSplit = (n: 1 | 2 | 4) => {
    setSplit(n);
    // Empty panes take the case's next slides, or the same slide again (compare two regions of one slide).
    setPaneSlides((p) => {
      const others = strip.map((x) => x.id).filter((id) => !p.includes(id));
      return p.map((id) => id ?? others.shift() ?? p[0] ?? null);
    });
    if (active >= n) setActive(0);
  };
  const setRotation = (deg: number) => {
    const v = ((deg % 360) + 360) % 360;
    setRotationState(v);
    viewer()?.setRotation(v);
  };
  const toggleFlip = () => {
    setFlipped((f) => !f);
    viewer()?.setFlip(!viewer()?.flipped());
  };
  const magnify = (m: number | 'fit') => {
    const v = viewer();
    if (!v || !activeSlide) return;
    if (m === 'fit') v.fit();
    else v.zoomToImageZoom(imageZoomFor(m, baseMagnification(activeSlide.objective_power, activeSlide.mpp)));
  };
  const zoomBy = (f: number) => {
    const v = viewer();
    if (v) v.viewport.zoomBy(f);
  };

  const editable = useCallback((a: Annotation) => !readOnly && !!user && (a.user_id === user.id || (!!grants && isAdmin(grants))), [readOnly, user, grants]);
  const select = (a: Annotation | null) => {
    setSelectedId(a?.id ?? null);
    if (a) viewer()?.showImageBox(boundsOf(a.points));
  };
  const failedWrite = () => {}; // The API client has shown the server's translated message.
  const onDraw = (d: Draft) => {
    const name = d.type === 'text' ? t('viewer.annotation.defaultText') : '';
    store.create({ type: d.type, points: d.points, color, name }).then((a) => {
      if (!a) return;
      setSelectedId(a.id);
      if (a.type === 'text') setTypingId(a.id);
    }, failedWrite);
  };
  const onTyped = (a: Annotation, text: string | null) => {
    setTypingId(null);
    const words = text?.trim();
    if (words && words !== a.name) store.update(a, { name: words }).catch(failedWrite);
  };
  const onMove = (a: Annotation, points: Point[]) => { store.update(a, { points }).catch(failedWrite); };
  const removeSelected = () => {
    const a = store.items.find((x) => x.id === selectedId);
    if (a && editable(a)) store.remove(a).then(() => setSelectedId(null), failedWrite);
  };
  const step = (d: number) => {
    const items = store.items;
    if (!items.length) return;
    const i = items.findIndex((x) => x.id === selectedId);
    select(items[(i + d + items.length) % items.length]!);
  };
  const fullScreen = () => {
    if (document.fullscreenElement) void document.exitFullscreen();
    else void rootRef.current?.requestFullscreen().catch(() => {});
  };
  const screenshot = async () => {
    const v = viewer();
    const pane = rootRef.current?.querySelector<HTMLElement>(`[data-testid="viewer-pane-${active}"]`);
    if (!v || !pane || !activeSlide) return;
    setCapture({ dataUrl: await captureView(v, pane), slideId: activeSlide.id, caseId: activeSlide.case_id, slideName: activeSlide.name });
    navigate(`/image/edit${activeSlide.case_id ? `?case=${activeSlide.case_id}` : ''}`);
  };

  // Linked panes follow the pane being moved (only the active one leads, so following cannot echo back).
  const onViewChange = (i: number) => {
    if (!linked || split === 1 || i !== active) return;
    const lead = viewers.current[i];
    if (!lead?.opened) return;
    const state = lead.state();
    const base = (k: number) => { const info = infos[paneSlides[k] ?? 0]; return info ? baseMagnification(info.objective_power, info.mpp) : 40; };
    // Linked by magnification, not by screen pixels per image pixel: a 20× scan beside a 40× one shows the same 10×.
    for (const j of PANE_SLOTS) if (j !== i && j < split) viewers.current[j]?.follow({ ...state, imageZoom: (state.imageZoom * base(i)) / base(j) });
  };

  const actions: Record<ShortcutAction, () => void> = {
    zoomIn: () => zoomBy(ZOOM_STEP), zoomOut: () => zoomBy(1 / ZOOM_STEP), fit: () => magnify('fit'),
    rotateRight: () => setRotation(rotation + 90), rotateLeft: () => setRotation(rotation - 90), flip: toggleFlip,
    pan: () => setTool('pan'), select: () => !readOnly && setTool('select'), ruler: () => !readOnly && setTool('ruler'),
    rectangle: () => !readOnly && setTool('rectangle'), polygon: () => !readOnly && setTool('polygon'),
    undo: () => void store.undo().catch(failedWrite), redo: () => void store.redo().catch(failedWrite), delete: removeSelected,
    next: () => step(1), previous: () => step(-1), grid: () => setGridUm((g) => (g === null ? 100 : null)), fullscreen: fullScreen, help: () => setHelp(true),
  };
  const actionsRef = useRef(actions);
  actionsRef.current = actions;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (fromTextField(e) || e.altKey) return;
      const sc = SHORTCUTS.find((x) => x.match(e));
      if (!sc) return;
      e.preventDefault();
      actionsRef.current[sc.action]();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  const columns = split === 1 ? '1fr' : '1fr 1fr';
  const rows = split === 4 ? '1fr 1fr' : '1fr';
  const touch = mode === 'h5';
  const title = useMemo(() => activeSlide?.name ?? '', [activeSlide]);
  useEffect(() => { if (title) document.title = `${title} · DSMS`; }, [title]);

  if (!firstSlide && (pathRoute || sectionRoute)) {
    return <div className={s.root} data-testid="viewer-locating">{failed ? <Text role="alert" className={s.center}>{t('viewer.notFound')}</Text> : <Spinner className={s.center} size="small" />}</div>;
  }
  if (!firstSlide && !caseRoute) return <div className={s.root}><Text className={s.center}>{t('viewer.noSlide')}</Text></div>;

  return (
    <div ref={rootRef} className={s.root} data-testid="viewer" data-mode={mode}>
      <ViewerToolbar readOnly={readOnly} tool={tool} onTool={(x) => { setTool(x); if (x !== 'select') setSelectedId(null); }} color={color} onColor={setColor}
        onMagnification={magnify} rotation={rotation} onRotation={setRotation} flipped={flipped} onFlip={toggleFlip}
        canUndo={store.canUndo} canRedo={store.canRedo} onUndo={() => void store.undo().catch(failedWrite)} onRedo={() => void store.redo().catch(failedWrite)}
        gridUm={gridUm} onGrid={setGridUm} colour={colour} onColour={setColour} split={split} onSplit={changeSplit} linked={linked} onLinked={setLinked}
        onScreenshot={() => void screenshot()} onFullScreen={fullScreen} onHelp={() => setHelp(true)} focus={focus} onFocus={() => setFocus((f) => !f)} />
      <div className={s.body}>
        <div className={s.panes} style={{ gridTemplateColumns: columns, gridTemplateRows: rows }}>
          {PANE_SLOTS.slice(0, split).map((i) => {
            const info = infos[paneSlides[i] ?? 0];
            if (!info || !(info.id in descriptors)) return <div key={i} className={s.center}>{failed ? <Text role="alert">{t('viewer.openFailed')}</Text> : <Spinner size="small" />}</div>;
            return (
              <ViewerPane key={i} index={i} slide={info} descriptor={descriptors[info.id] ?? null} active={i === active} tool={i === active ? tool : 'pan'} color={color}
                annotations={stores[i]!.items} selectedId={i === active ? selectedId : null} gridUm={gridUm} colour={colour} touch={touch}
                showTitle={split > 1} focus={focus} editable={editable} onActivate={() => { setActive(i); setSelectedId(null); }}
                onViewer={(v) => { viewers.current[i] = v; }} onDraw={onDraw} onTooSmall={() => notify(t('viewer.tooSmall'), 'warning')}
                onSelect={(id) => setSelectedId(id)} onMove={onMove} typingId={i === active ? typingId : null} onTyped={onTyped} onViewChange={() => onViewChange(i)} />
            );
          })}
        </div>
        {!touch && activeSlide && (
          <aside className={s.side}>
            <TabList size="small" selectedValue={tab} onTabSelect={(_, d) => setTab(d.value as 'info' | 'annotations' | 'share')}>
              <Tab value="annotations" data-testid="tab-annotations">{t('viewer.annotation.list')}</Tab>
              <Tab value="info" data-testid="tab-info">{t('viewer.info.title')}</Tab>
              <Tab value="share" data-testid="tab-share">{t('share.tab')}</Tab>
            </TabList>
            {tab === 'info' && <SlideInfoPanel slide={activeSlide} />}
            {tab === 'share' && <Suspense fallback={<Spinner size="small" />}><SharePanel slideId={activeSlide.id} /></Suspense>}
            {tab === 'annotations' && (mayAnnotate
              ? <AnnotationPanel items={store.items} selectedId={selectedId} readOnly={readOnly} slideName={activeSlide.name} editable={editable}
                onSelect={select} onChange={(a, c) => store.update(a, c)} onDelete={(a) => store.remove(a).then(() => setSelectedId(null))}
                onImport={(shapes) => store.importShapes(shapes)} onMessage={(text, intent) => notify(text, intent)} />
              : <Text>{t('viewer.annotation.noPermission')}</Text>)}
          </aside>
        )}
      </div>
      {strip.length > 1 && (
        <nav className={s.strip} data-testid="slide-strip" aria-label={t('viewer.strip')}>
          {strip.map((x) => (
            <button key={x.id} type="button" data-testid="strip-slide" data-slide={x.id} className={`${s.thumb} ${paneSlides[active] === x.id ? s.thumbOn : ''}`}
              onClick={() => { setPaneSlides((p) => p.map((id, i) => (i === active ? x.id : id))); setSelectedId(null); }}>
              {x.thumb_url ? <img className={s.thumbImg} src={x.thumb_url} alt="" /> : <span className={s.thumbImg} />}
              <span>{x.name}</span>
            </button>
          ))}
        </nav>
      )}
      <ShortcutHelp open={help} onClose={() => setHelp(false)} />
    </div>
  );
}
