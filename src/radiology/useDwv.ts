import { App, AppOptions, Index, ToolConfig, ViewConfig, type ViewController } from './dwv';
import { useCallback, useEffect, useRef, useState } from 'react';

/** The viewer's tools: dwv's own (Ruler is its Draw tool with the Ruler shape, measuring in mm from Pixel Spacing). */
export type DwvTool = 'Scroll' | 'WindowLevel' | 'ZoomAndPan' | 'Ruler';
export const DWV_TOOLS: readonly DwvTool[] = ['Scroll', 'WindowLevel', 'ZoomAndPan', 'Ruler'];

export interface Measurement { id: string; value: number; unit: string }

export interface DwvView {
  ready: boolean;
  failed: boolean;
  /** 0-based slice index along the scroll axis, and the number of slices. */
  slice: number;
  slices: number;
  center: number | null;
  width: number | null;
  presets: string[];
  preset: string;
  tool: DwvTool;
  measurements: Measurement[];
}

const EMPTY: DwvView = { ready: false, failed: false, slice: 0, slices: 0, center: null, width: null, presets: [], preset: '', tool: 'Scroll', measurements: [] };

/** dwv's tool names: Ruler is a shape of Draw. */
const toolOptions = () => {
  const draw = new ToolConfig(['Ruler']);
  return { Scroll: new ToolConfig(), WindowLevel: new ToolConfig(), ZoomAndPan: new ToolConfig(), Draw: draw };
};

/**
 * One dwv App over the div `divId`, showing `files` (one series); a new set of files makes a new App (dwv keeps
 * every data it loaded as a layer, so a series change starts clean). The state mirrors what dwv shows: the slice,
 * the window, the presets it offers for the modality and file, the ruler lengths of every slice.
 */
export function useDwv(divId: string, files: File[] | null) {
  const appRef = useRef<App | null>(null);
  const dataRef = useRef<string | null>(null);
  const [view, setView] = useState<DwvView>(EMPTY);

  const controller = useCallback((): ViewController | null => {
    const app = appRef.current;
    const dataId = dataRef.current;
    if (!app || dataId === null) return null;
    return app.getViewLayersByDataId(dataId)[0]?.getViewController() ?? null;
  }, []);

  const sync = useCallback(() => {
    const app = appRef.current;
    const vc = controller();
    if (!app || !vc) return;
    const dim = vc.getScrollDimIndex();
    const wl = vc.canWindowLevel() ? vc.getWindowLevel() : null;
    // dwv keeps drawings as data of their own (one per drawn-on image), beside the image's.
    const annotations = app.getDataIds().flatMap((id) => app.getData(id)?.annotationGroup?.getList() ?? []);
    const measurements = annotations.flatMap((a) => {
      const length = a.quantification?.length;
      return length && typeof length.value === 'number' ? [{ id: a.trackingUid, value: length.value, unit: String(length.unit ?? '') }] : [];
    });
    setView((v) => ({
      ...v,
      slice: vc.getCurrentIndex().get(dim) ?? 0,
      slices: vc.getImageSize().get(dim) ?? 1,
      center: wl?.center ?? null,
      width: wl?.width ?? null,
      presets: vc.canWindowLevel() ? vc.getWindowLevelPresetsNames() : [],
      preset: vc.getCurrentWindowPresetName() ?? '',
      measurements,
    }));
  }, [controller]);

  const setTool = useCallback((tool: DwvTool) => {
    const app = appRef.current;
    if (!app) return;
    app.setTool(tool === 'Ruler' ? 'Draw' : tool);
    if (tool === 'Ruler') app.setToolFeatures({ shapeName: 'Ruler' });
    // After drawing the active layer is the draw layer; the other tools work on the image's layer.
    else app.getActiveLayerGroup()?.setActiveLayer(0);
    setView((v) => ({ ...v, tool }));
  }, []);

  useEffect(() => {
    if (!files?.length) return;
    const app = new App();
    const options = new AppOptions({ '*': [new ViewConfig(divId)] });
    options.tools = toolOptions();
    app.init(options);
    appRef.current = app;
    dataRef.current = null;
    setView(EMPTY);
    // Ready once every file is loaded and the image drawn (dwv draws at the first file, then the series grows).
    let loaded = false;
    let drawn = false;
    const take = (dataId: string) => {
      // The series' image data; drawings become data of their own later, and are rendered too.
      if (dataRef.current === null && app.getData(dataId)?.image) dataRef.current = dataId;
    };
    const settle = () => {
      if (!loaded || !drawn || dataRef.current === null) return;
      loaded = false;
      const vc = controller();
      setView((v) => ({ ...v, ready: true }));
      setTool(vc?.canScroll() ? 'Scroll' : vc?.canWindowLevel() ? 'WindowLevel' : 'ZoomAndPan');
      sync();
    };
    app.addEventListener('load', (e: { dataid: string }) => { take(e.dataid); loaded = true; settle(); });
    app.addEventListener('renderend', (e: { dataid: string }) => { take(e.dataid); drawn = true; settle(); });
    const failed = () => setView((v) => ({ ...v, failed: true }));
    app.addEventListener('error', failed);
    app.addEventListener('loaderror', failed);
    for (const type of ['loaditem', 'positionchange', 'wlchange', 'annotationadd', 'annotationupdate', 'annotationremove']) app.addEventListener(type, sync);
    // dwv's own keys (Ctrl+arrows: slices; Ctrl+Z/Y: undo, redo) while one of its tools has the pointer.
    app.addEventListener('keydown', (e: KeyboardEvent) => app.defaultOnKeydown(e));
    window.addEventListener('resize', app.onResize);
    app.loadFiles(files);
    return () => {
      window.removeEventListener('resize', app.onResize);
      // The toolbox listens to the window's keys: not once the page is gone.
      app.getToolboxController()?.enableShortcuts(false);
      app.abortAllLoads();
      app.reset();
      appRef.current = null;
      dataRef.current = null;
      document.getElementById(divId)?.replaceChildren();
    };
  }, [divId, files, controller, setTool, sync]);

  /** Moves to slice `k` (clamped), along whatever axis the series scrolls. */
  const scrollTo = useCallback((k: number) => {
    const vc = controller();
    if (!vc) return;
    const dim = vc.getScrollDimIndex();
    const count = vc.getImageSize().get(dim) ?? 1;
    const values = vc.getCurrentIndex().getValues();
    values[dim] = Math.max(0, Math.min(count - 1, Math.round(k)));
    vc.setCurrentIndex(new Index(values));
  }, [controller]);

  const setPreset = useCallback((name: string) => {
    controller()?.setWindowLevelPreset(name);
    sync();
  }, [controller, sync]);

  const reset = useCallback(() => {
    const vc = controller();
    appRef.current?.resetZoomPan();
    vc?.resetWindowLevel();
    sync();
  }, [controller, sync]);

  /** Deletes every drawing, each as an undoable command (Ctrl+Z brings them back). */
  const clearMeasurements = useCallback(() => {
    const app = appRef.current;
    if (!app) return;
    for (const layer of app.getDrawLayers()) {
      const drawings = layer.getDrawController();
      // Copied first: dwv's removeAll walks the list it removes from, and skips every other drawing.
      for (const a of [...drawings.getAnnotationGroup().getList()]) drawings.removeAnnotationWithCommand(a.trackingUid, (cmd: Parameters<App['addToUndoStack']>[0]) => app.addToUndoStack(cmd));
    }
    sync();
  }, [sync]);

  return { view, setTool, scrollTo, setPreset, reset, clearMeasurements };
}
