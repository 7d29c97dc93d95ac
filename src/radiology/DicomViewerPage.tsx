import { Button, Dropdown, makeStyles, MessageBar, MessageBarBody, Option, Slider, Spinner, Text, Title3, ToggleButton, Toolbar, tokens } from '@fluentui/react-components';
import { ArrowLeft20Regular, ArrowReset20Regular, BrightnessHigh20Regular, Delete20Regular, Layer20Regular, Ruler20Regular, ZoomIn20Regular } from '@fluentui/react-icons';
import { useEffect, useMemo, useState, type KeyboardEvent, type ReactElement } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useParams } from 'react-router-dom';
import { api, displayText, unwrap } from '../api/client';
import { groupSeries, seriesOf, VIEWER_MAX_BYTES, VIEWER_MAX_IMAGES, type DicomAttachment, type RadiologySeries } from '../core/radiology';
import { fetchSeries, SeriesLimitError } from './loadSeries';
import { SeriesList } from './SeriesList';
import { DWV_TOOLS, useDwv, type DwvTool } from './useDwv';
import { presetLabel, unitLabel } from './labels';
import './words';

// dwv names its layers `${group}-layer-${n}` and finds the group by splitting there: no "-layer-" in the group's id.
const LAYER_ID = 'dicomLayerGroup';

const useStyles = makeStyles({
  root: { height: '100vh', display: 'grid', gridTemplateRows: 'auto 1fr', backgroundColor: tokens.colorNeutralBackground2 },
  head: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', padding: `${tokens.spacingVerticalS} ${tokens.spacingHorizontalL}`, backgroundColor: tokens.colorNeutralBackground1, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  grow: { flexGrow: 1 },
  body: { display: 'grid', gridTemplateColumns: '260px 1fr 240px', minHeight: 0 },
  side: { overflowY: 'auto', padding: tokens.spacingHorizontalM, display: 'grid', alignContent: 'start', gap: tokens.spacingVerticalS, backgroundColor: tokens.colorNeutralBackground1 },
  centre: { display: 'grid', gridTemplateRows: 'auto 1fr auto', minWidth: 0, minHeight: 0 },
  bar: { flexWrap: 'wrap', backgroundColor: tokens.colorNeutralBackground1, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  stage: { position: 'relative', backgroundColor: '#000', minHeight: 0, outline: 'none', ':focus-visible': { outline: `2px solid ${tokens.colorBrandStroke1}` } },
  // dwv stacks its layers (image, drawings) in the group and turns pointer events on for the active one.
  layer: { position: 'absolute', inset: 0, display: 'flex', justifyContent: 'center', '& .layer': { position: 'absolute', pointerEvents: 'none' } },
  overlay: {
    position: 'absolute', left: tokens.spacingHorizontalS, top: tokens.spacingVerticalS, color: '#fff', display: 'grid', gap: '2px', pointerEvents: 'none',
    padding: `2px ${tokens.spacingHorizontalS}`, borderRadius: tokens.borderRadiusMedium, backgroundColor: 'rgba(0, 0, 0, 0.6)',
  },
  centred: { position: 'absolute', inset: 0, display: 'grid', placeItems: 'center', color: '#fff' },
  foot: { display: 'flex', gap: tokens.spacingHorizontalM, alignItems: 'center', padding: `${tokens.spacingVerticalXS} ${tokens.spacingHorizontalM}`, backgroundColor: tokens.colorNeutralBackground1 },
  slider: { flexGrow: 1 },
  list: { margin: 0, paddingLeft: tokens.spacingHorizontalL, display: 'grid', gap: '4px' },
});

/** Slices moved by a key on the image (Home and End go to the first and last). */
const KEY_STEPS: Partial<Record<string, number>> = { ArrowUp: -1, ArrowLeft: -1, PageUp: -10, ArrowDown: 1, ArrowRight: 1, PageDown: 10 };

const TOOL_ICON: Record<DwvTool, ReactElement> = {
  Scroll: <Layer20Regular />, WindowLevel: <BrightnessHigh20Regular />, ZoomAndPan: <ZoomIn20Regular />, Ruler: <Ruler20Regular />,
};

/**
 * The DICOM viewer of spec §2, /dicom/:pid/:id: `pid` is the case, `id` the case image (a DICOM attachment) to open,
 * as /kfb/:pid/:id names a case and its slide. The case's DICOM attachments are listed as series (SeriesInstanceUID);
 * the chosen series is fetched through the API (permission and hospital checked there) and drawn by dwv: slices by
 * wheel, slider or keys, window/level by drag or preset, zoom and pan, lengths in mm from Pixel Spacing.
 */
export default function DicomViewerPage() {
  const s = useStyles();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const caseId = Number(useParams().pid);
  const imageId = Number(useParams().id);
  const [series, setSeries] = useState<RadiologySeries[] | null>(null);
  const [error, setError] = useState('');
  const [files, setFiles] = useState<File[] | null>(null);
  const [fetched, setFetched] = useState(0);
  const { view, setTool, scrollTo, setPreset, reset, clearMeasurements } = useDwv(LAYER_ID, files);
  const current = useMemo(() => (series ? seriesOf(series, imageId) : null), [series, imageId]);

  useEffect(() => {
    setSeries(null);
    unwrap<DicomAttachment[]>(api.get(`/cases/${caseId}/images`, { silent: true }))
      .then((list) => setSeries(groupSeries(list)), (e: unknown) => setError(t('dicom.listFailed', { reason: displayText(e, String(e)) })));
  }, [caseId, t]);

  useEffect(() => {
    if (!current) return;
    const abort = new AbortController();
    setFiles(null);
    setFetched(0);
    setError('');
    fetchSeries(current.images, abort.signal, setFetched).then(setFiles, (e: unknown) => {
      if (abort.signal.aborted) return;
      setError(e instanceof SeriesLimitError
        ? e.limit === 'images' ? t('dicom.tooMany', { max: VIEWER_MAX_IMAGES }) : t('dicom.tooLarge', { max: `${VIEWER_MAX_BYTES / 2 ** 30} GB` })
        : t('dicom.loadFailed', { reason: displayText(e, String(e)) }));
    });
    return () => abort.abort();
  }, [current, t]);

  // Slices by key while the image has the focus (the wheel and dwv's Ctrl+arrows work through dwv itself).
  const onKey = (e: KeyboardEvent) => {
    const step = KEY_STEPS[e.key];
    if (e.key === 'Home') scrollTo(0);
    else if (e.key === 'End') scrollTo(view.slices - 1);
    else if (step === undefined || e.ctrlKey) return;
    else scrollTo(view.slice + step);
    e.preventDefault();
  };

  const loading = !!current && !error && !view.ready && !view.failed;
  const percent = current ? Math.round((100 * fetched) / current.images.length) : 0;
  return (
    <div className={s.root} data-testid="dicom-viewer">
      <header className={s.head}>
        <Link to={`/case/${caseId}`} data-testid="dicom-back"><ArrowLeft20Regular /> {t('dicom.backToCase')}</Link>
        <Title3 as="h1">{t('dicom.title')}</Title3>
        <span className={s.grow} />
        <Text size={200}>{t('dicom.notForDiagnosis')}</Text>
      </header>
      <div className={s.body}>
        <aside className={s.side}>
          <Text weight="semibold">{t('dicom.series')}</Text>
          {series === null && !error && <Spinner size="tiny" />}
          {series?.length === 0 && <Text data-testid="dicom-no-series">{t('dicom.noSeries')}</Text>}
          {series && series.length > 0 && current && (
            <SeriesList series={series} current={current.key} onOpen={(x) => navigate(`/dicom/${caseId}/${x.images[0]}`, { replace: true })} />
          )}
        </aside>
        <main className={s.centre}>
          <Toolbar className={s.bar} size="small" aria-label={t('dicom.toolbar')}>
            {DWV_TOOLS.map((tool) => (
              <ToggleButton key={tool} size="small" icon={TOOL_ICON[tool]} checked={view.tool === tool} data-testid={`dicom-tool-${tool}`}
                disabled={!view.ready || (tool === 'Scroll' && view.slices < 2) || (tool === 'WindowLevel' && view.width === null)}
                onClick={() => setTool(tool)}>{t(`dicom.tool.${tool}`)}</ToggleButton>
            ))}
            <Dropdown size="small" aria-label={t('dicom.preset')} placeholder={t('dicom.preset')} data-testid="dicom-preset" disabled={!view.presets.length}
              value={view.preset ? presetLabel(t, view.preset) : ''} selectedOptions={view.preset ? [view.preset] : []}
              onOptionSelect={(_, d) => d.optionValue && setPreset(d.optionValue)}>
              {view.presets.map((p) => <Option key={p} value={p}>{presetLabel(t, p)}</Option>)}
            </Dropdown>
            <Button size="small" icon={<ArrowReset20Regular />} disabled={!view.ready} onClick={reset} data-testid="dicom-reset">{t('dicom.reset')}</Button>
          </Toolbar>
          <div className={s.stage} tabIndex={0} onKeyDown={onKey} data-testid="dicom-stage" aria-label={t('dicom.keysHint')}>
            <div id={LAYER_ID} className={s.layer} data-testid="dicom-layer" />
            {view.ready && (
              <div className={s.overlay}>
                <Text data-testid="dicom-slice" data-index={view.slice} data-count={view.slices}>{t('dicom.sliceOf', { index: view.slice + 1, count: view.slices })}</Text>
                {view.width !== null && (
                  <Text data-testid="dicom-wl" data-center={view.center ?? ''} data-width={view.width}>
                    {t('dicom.windowLevel', { width: Math.round(view.width), center: Math.round(view.center ?? 0) })}
                  </Text>
                )}
              </div>
            )}
            {loading && <div className={s.centred}><Spinner label={t('dicom.loading', { percent })} labelPosition="below" /></div>}
            {error && <div className={s.centred}><MessageBar intent="error"><MessageBarBody data-testid="dicom-error">{error}</MessageBarBody></MessageBar></div>}
            {view.failed && !error && <div className={s.centred}><MessageBar intent="error"><MessageBarBody data-testid="dicom-error">{t('dicom.decodeFailed')}</MessageBarBody></MessageBar></div>}
          </div>
          <footer className={s.foot}>
            <Text>{t('dicom.slice')}</Text>
            <Slider className={s.slider} min={0} max={Math.max(0, view.slices - 1)} step={1} value={view.slice} disabled={view.slices < 2}
              aria-label={t('dicom.slice')} data-testid="dicom-slider" onChange={(_, d) => scrollTo(d.value)} />
            <Text size={200}>{t('dicom.keysHint')}</Text>
          </footer>
        </main>
        <aside className={s.side}>
          <Text weight="semibold">{t('dicom.measurements')}</Text>
          {view.measurements.length === 0
            ? <Text size={200}>{t('dicom.noMeasurements')}</Text>
            : (
              <>
                <ol className={s.list} data-testid="dicom-measurements">
                  {view.measurements.map((m, i) => (
                    <li key={m.id} data-value={m.value} data-unit={m.unit}>
                      <Text>{t('dicom.measurement', { n: i + 1 })}: {m.value.toFixed(2)} {unitLabel(t, m.unit)}</Text>
                    </li>
                  ))}
                </ol>
                <Button size="small" icon={<Delete20Regular />} onClick={clearMeasurements} data-testid="dicom-clear">{t('dicom.deleteMeasurements')}</Button>
              </>
            )}
        </aside>
      </div>
    </div>
  );
}
