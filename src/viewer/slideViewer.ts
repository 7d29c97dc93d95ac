import OpenSeadragon from 'openseadragon';
import { affineFromPoints, invertAffine, applyAffine, type Affine } from '../core/viewerScale';
import { dziUrl, type DziDescriptor } from './api';
import { cssFilter, NEUTRAL_COLOUR, type ColourAdjust } from '../core/colourAdjust';

/** How far (element pixels) a press may move before its release and still be a click (OpenSeadragon's default). */
const CLICK_DISTANCE = 5;

/** Where one view stands, in terms another view of another slide can take over (linked split screen). */
export interface ViewState {
  /** Centre in viewport coordinates (image width = 1), so slides of different sizes line up by position. */
  center: { x: number; y: number };
  imageZoom: number;
  rotation: number;
  flip: boolean;
}

export interface PointerHandlers {
  press(image: [number, number], shift: boolean): boolean;
  drag(image: [number, number]): boolean;
  release(image: [number, number]): boolean;
  click(image: [number, number]): boolean;
  doubleClick(image: [number, number]): boolean;
}

export interface SlideViewerOptions {
  element: HTMLElement;
  /** An element React renders empty; the navigator goes inside it. */
  navigator: HTMLElement | null;
  slideId: number;
  /** The descriptor fetched beforehand (saves OpenSeadragon's own request for it); null: it fetches the .dzi. */
  descriptor?: DziDescriptor | null;
  /** Another Deep Zoom address than the slide's own (a share link's, /share/view). */
  tileSource?: string;
  /** Touch devices (/h5/view): pinch and pan only, no click-to-zoom surprises. */
  touch?: boolean;
}

/**
 * One OpenSeadragon viewer over a slide's Deep Zoom tiles, with what the React side needs: magnification in
 * image-zoom terms, rotation and flip, the image → element affine map (for the SVG overlay), drawing-tool
 * pointer hooks, a colour filter applied while tiles are drawn (so the canvas pixels change, and screenshots
 * carry it) and a snapshot of the canvas. Tiles are plain same-origin <img> loads: the image cookie
 * authenticates them, and the browser cache (strong ETags, immutable) is honoured.
 */
export class SlideViewer {
  readonly osd: OpenSeadragon.Viewer;
  private listeners = new Set<() => void>();
  private pointer: PointerHandlers | null = null;
  private colour: ColourAdjust = NEUTRAL_COLOUR;
  private gammaFilterId: string | null = null;
  /** Tile responses seen (the e2e counts them; the benchmark times the first sharp view by them). */
  tilesLoaded = 0;
  opened = false;
  /** performance.now() when the first view was first fully sharp; null until then. */
  firstSharpAt: number | null = null;
  openedAt: number | null = null;

  constructor(options: SlideViewerOptions) {
    // OpenSeadragon wraps and moves the navigator's element: it gets one of its own inside the host, which React
    // renders without children, so React never finds its DOM rearranged.
    const navigator = options.navigator ? document.createElement('div') : null;
    if (navigator) {
      navigator.style.cssText = 'width:100%;height:100%';
      options.navigator!.replaceChildren(navigator);
    }
    // Marks for the benchmark's waterfall (scripts/bench/viewer.ts): when the viewer was made, opened, sharp.
    performance.mark('viewer:created');
    this.osd = OpenSeadragon({
      element: options.element,
      tileSources: (options.tileSource ?? options.descriptor ?? dziUrl(options.slideId)) as OpenSeadragon.Options['tileSources'],
      // Canvas, not WebGL: its 2-D context takes the colour filter and can be read back for a screenshot.
      drawer: 'canvas',
      showNavigationControl: false,
      showNavigator: !!navigator,
      ...(navigator ? { navigatorElement: navigator } : {}),
      navigatorAutoFade: false,
      animationTime: 0.4,
      blendTime: 0,
      // Tiles beyond 2 screen pixels per image pixel show nothing new; let 40× on a 20× scan still magnify.
      maxZoomPixelRatio: 4,
      minZoomImageRatio: 0.5,
      visibilityRatio: 0.2,
      // A view's tiles asked for in a few frames, not one tile per animation frame (OpenSeadragon's default
      // maxTilesPerFrame 1): the first sharp view of a 50k slide needs ~50 tiles, which at one a frame waited
      // level by level for ~4× the raw tile fetch (scripts/bench/viewer.ts prints the waterfall).
      maxTilesPerFrame: 16,
      imageLoaderLimit: 32,
      immediateRender: true,
      preserveImageSizeOnResize: true,
      gestureSettingsMouse: { clickToZoom: false, dblClickToZoom: false },
      clickDistThreshold: CLICK_DISTANCE,
      gestureSettingsTouch: { pinchRotate: !!options.touch, flickEnabled: true },
      keyboardNavEnabled: false,
    } as OpenSeadragon.Options);
    this.osd.addHandler('open', () => {
      this.opened = true;
      this.openedAt = performance.now();
      performance.mark('viewer:opened');
      const item = this.osd.world.getItemAt(0);
      const restoreCutOff = item ? this.firstViewAtBestLevel(item) : () => {};
      // Fully loaded: every tile the current view needs is drawn at its best level (the benchmark's "sharp").
      item?.addHandler('fully-loaded-change', (e) => {
        if ((e as unknown as { fullyLoaded: boolean }).fullyLoaded && this.firstSharpAt === null) {
          this.firstSharpAt = performance.now();
          performance.mark('viewer:sharp');
          restoreCutOff();
        }
        this.emit();
      });
      this.emit();
    });
    this.osd.addHandler('tile-loaded', () => { this.tilesLoaded++; });
    for (const e of ['animation', 'animation-finish', 'resize', 'rotate', 'flip'] as const) this.osd.addHandler(e as 'animation', () => this.emit());
    this.hookPointer();
    this.hookColour();
  }

  /**
   * The first view loads its sharp level only. OpenSeadragon walks down from the sharpest level it may draw
   * (minPixelRatio) to its "cut-off", the largest level of one tile, loading each level the view has not covered
   * yet as a blurry preview; with immediateRender it even asks first for the level nearest one screen pixel per
   * image pixel. At home on a 50k slide that was 16 tiles of level 10 ahead of the 49 of level 11 the view is drawn
   * sharp at, all through the browser's six connections (scripts/bench/viewer.ts prints the waterfall). With the
   * sharp level as the cut-off the walk stops there. The own cut-off comes back once the first view is sharp, or
   * as soon as a zoom asks for another level (a resize right after opening keeps the image's size, and its level).
   * Returns the restorer.
   */
  private firstViewAtBestLevel(item: OpenSeadragon.TiledImage): () => void {
    const tiled = item as unknown as { savedCutOffLevel: number; minPixelRatio: number; source: { maxLevel: number } };
    const own = tiled.savedCutOffLevel;
    const { maxLevel } = tiled.source;
    // Screen pixels per pixel of level L: imageZoom × 2^(maxLevel − L); the sharpest level drawn has at least minPixelRatio.
    const sharpLevel = (imageZoom: number) => {
      let level = maxLevel;
      while (level > own && imageZoom * 2 ** (maxLevel - level) < tiled.minPixelRatio) level--;
      return level;
    };
    const zoom = this.imageZoom();
    const best = sharpLevel(zoom);
    if (!(zoom > 0) || best <= own) return () => {};
    tiled.savedCutOffLevel = best;
    let restored = false;
    const onZoom = (e: { zoom?: number }) => {
      if (e.zoom !== undefined && sharpLevel(this.viewport.viewportToImageZoom(e.zoom)) !== best) restore();
    };
    const restore = () => {
      if (restored) return;
      restored = true;
      tiled.savedCutOffLevel = own;
      this.osd.removeHandler('zoom', onZoom);
    };
    this.osd.addHandler('zoom', onZoom);
    return restore;
  }

  destroy(): void {
    this.listeners.clear();
    this.osd.destroy();
  }

  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private emit() {
    for (const l of this.listeners) l();
  }

  get viewport() {
    return this.osd.viewport;
  }

  /**
   * Nothing left to move or load: no zoom, pan or rotation under way (each spring at its target), the element the size
   * the view was laid out for, and every tile the view needs drawn at its best level. ViewerPane shows it as
   * `data-settled`, which the e2e tests wait for before a screenshot or a click at image coordinates.
   */
  settled(): boolean {
    const item = this.opened ? this.osd.world.getItemAt(0) : undefined;
    if (!item?.getFullyLoaded()) return false;
    const vp = this.viewport;
    const size = vp.getContainerSize();
    return vp.getZoom(true) === vp.getZoom(false) && vp.getCenter(true).equals(vp.getCenter(false)) && vp.getRotation(true) === vp.getRotation(false)
      && size.x === this.osd.container.clientWidth && size.y === this.osd.container.clientHeight;
  }

  /** Screen pixels per level-0 image pixel. */
  imageZoom(): number {
    return this.opened ? this.viewport.viewportToImageZoom(this.viewport.getZoom(true)) : 0;
  }

  zoomToImageZoom(z: number, immediately = false): void {
    this.viewport.zoomTo(this.viewport.imageToViewportZoom(z), undefined, immediately);
  }

  /** Brings a box of the image (level-0 pixels) into view with a margin: next/previous annotation. */
  showImageBox(box: { minX: number; minY: number; maxX: number; maxY: number }): void {
    // Never past the scanning magnification: a small shape is shown at 1 image pixel per screen pixel.
    const w = Math.max((box.maxX - box.minX) * 2, this.osd.container.clientWidth);
    const h = Math.max((box.maxY - box.minY) * 2, this.osd.container.clientHeight);
    const cx = (box.minX + box.maxX) / 2;
    const cy = (box.minY + box.maxY) / 2;
    const rect = this.viewport.imageToViewportRectangle(cx - w / 2, cy - h / 2, w, h);
    this.viewport.fitBoundsWithConstraints(rect);
  }

  fit(): void {
    this.viewport.goHome();
  }

  rotation(): number {
    return this.viewport.getRotation(true);
  }

  setRotation(deg: number): void {
    this.viewport.setRotation(((deg % 360) + 360) % 360);
    this.emit();
  }

  flipped(): boolean {
    return this.viewport.getFlip();
  }

  setFlip(flip: boolean): void {
    this.viewport.setFlip(flip);
    this.emit();
  }

  /**
   * Image (level-0 pixels) → viewer element pixels, as an affine map sampled from OpenSeadragon's own
   * conversion (zoom, pan, rotation). Its conversion leaves out the flip, which the drawer applies as a
   * mirror about the element's vertical centre line; that is composed here.
   */
  imageToElement(): Affine | null {
    if (!this.opened) return null;
    const at = (x: number, y: number): [number, number] => {
      const p = this.viewport.imageToViewerElementCoordinates(new OpenSeadragon.Point(x, y));
      return this.flipped() ? [this.osd.container.clientWidth - p.x, p.y] : [p.x, p.y];
    };
    // Sampled 1000 px apart: at low zoom one image pixel is a fraction of a screen pixel and rounding would show.
    const o = at(0, 0);
    const x = at(1000, 0);
    const y = at(0, 1000);
    return affineFromPoints(o, [o[0] + (x[0] - o[0]) / 1000, o[1] + (x[1] - o[1]) / 1000], [o[0] + (y[0] - o[0]) / 1000, o[1] + (y[1] - o[1]) / 1000]);
  }

  elementToImage(p: { x: number; y: number }): [number, number] | null {
    const m = this.imageToElement();
    return m ? applyAffine(invertAffine(m), [p.x, p.y]) : null;
  }

  state(): ViewState {
    const c = this.viewport.getCenter(true);
    return { center: { x: c.x, y: c.y }, imageZoom: this.imageZoom(), rotation: this.rotation(), flip: this.flipped() };
  }

  /** Takes over another view's place (linked split screen): no animation, so the views move as one. */
  follow(s: ViewState): void {
    if (!this.opened) return;
    this.viewport.setRotation(s.rotation, true);
    if (this.flipped() !== s.flip) this.viewport.setFlip(s.flip);
    this.viewport.zoomTo(this.viewport.imageToViewportZoom(s.imageZoom), undefined, true);
    this.viewport.panTo(new OpenSeadragon.Point(s.center.x, s.center.y), true);
  }

  setPointerHandlers(handlers: PointerHandlers | null): void {
    this.pointer = handlers;
  }

  /**
   * Drawing tools take the mouse from OpenSeadragon while they need it: a handled press/drag does not pan,
   * a handled click or double click does not zoom. The wheel still zooms.
   */
  private hookPointer() {
    const toImage = (e: { position: OpenSeadragon.Point }) => this.elementToImage(e.position);
    // A click is a press and release in one place, however long the button was held (a vertex placed with care,
    // or a busy page late to see the release): OpenSeadragon's `quick` also needs it shorter than a time.
    let pressedAt: OpenSeadragon.Point | null = null;
    this.osd.addHandler('canvas-press', (e) => {
      pressedAt = e.position;
      const p = toImage(e);
      if (p) this.pointer?.press(p, !!(e.originalEvent as MouseEvent).shiftKey);
    });
    this.osd.addHandler('canvas-drag', (e) => {
      const p = toImage(e);
      if (p && this.pointer?.drag(p)) e.preventDefaultAction = true;
    });
    this.osd.addHandler('canvas-release', (e) => {
      const p = toImage(e);
      if (p) this.pointer?.release(p);
    });
    this.osd.addHandler('canvas-click', (e) => {
      const p = toImage(e);
      const still = !!pressedAt && pressedAt.distanceTo(e.position) <= CLICK_DISTANCE;
      if (p && still && this.pointer?.click(p)) e.preventDefaultAction = true;
    });
    // The browser's own double click, not OpenSeadragon's: OpenSeadragon counts clicks with a 300 ms timer, which
    // a busy page (a render between the two clicks) lets run out, and then a polygon is never closed.
    // A double tap stays OpenSeadragon's.
    this.osd.addHandler('canvas-double-click', (e) => {
      const p = toImage(e);
      if ((e.originalEvent as PointerEvent).pointerType === 'touch' && p && this.pointer?.doubleClick(p)) e.preventDefaultAction = true;
    });
    const canvas = this.osd.canvas;
    canvas.addEventListener('dblclick', (e) => {
      const box = canvas.getBoundingClientRect();
      const p = this.elementToImage({ x: e.clientX - box.left, y: e.clientY - box.top });
      if (p && this.pointer?.doubleClick(p)) e.preventDefault();
    });
  }

  setColour(c: ColourAdjust, gammaFilterId: string | null): void {
    this.colour = c;
    this.gammaFilterId = gammaFilterId;
    this.osd.forceRedraw();
  }

  /**
   * The canvas drawer's 2-D context draws every tile through `filter` when it is set; the canvas is resized
   * (and its context reset) between frames, so the filter is set again before each frame.
   */
  private hookColour() {
    this.osd.addHandler('open', () => {
      const drawer = this.osd.drawer as unknown as { context?: CanvasRenderingContext2D; draw: (items: unknown) => void };
      if (!drawer.context) return;
      const draw = drawer.draw.bind(drawer);
      drawer.draw = (items: unknown) => {
        drawer.context!.filter = cssFilter(this.colour, this.gammaFilterId);
        draw(items);
        drawer.context!.filter = 'none';
      };
    });
  }

  /** The drawn canvas (colour included) as the screenshot's background. */
  canvas(): HTMLCanvasElement | null {
    return (this.osd.drawer as unknown as { canvas?: HTMLCanvasElement }).canvas ?? null;
  }

  setFullScreen(on: boolean): void {
    this.osd.setFullScreen(on);
  }
}
