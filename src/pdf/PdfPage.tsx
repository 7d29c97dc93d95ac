import { Button, MessageBar, MessageBarBody, Spinner, Text, Toolbar, ToolbarButton, Tooltip, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowDownload20Regular, ZoomFit20Regular, ZoomIn20Regular, ZoomOut20Regular } from '@fluentui/react-icons';
import type { PDFDocumentProxy } from 'pdfjs-dist';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { pdfAddress } from '../core/pdfAddress';
import { MAX_PAGES_SHOWN, openPdf, renderPage } from './renderPdf';
import { fetchPdf, looksLikePdf, pdfProtected } from './pdfSettings';
import { usePdfProtection } from './usePdfProtection';
import './words';

const useStyles = makeStyles({
  root: { display: 'flex', flexDirection: 'column', height: '100vh', backgroundColor: tokens.colorNeutralBackground3 },
  bar: { display: 'flex', alignItems: 'center', gap: tokens.spacingHorizontalM, padding: `0 ${tokens.spacingHorizontalL}`, backgroundColor: tokens.colorNeutralBackground1, borderBottom: `1px solid ${tokens.colorNeutralStroke2}` },
  grow: { flexGrow: 1 },
  pages: { flexGrow: 1, overflow: 'auto', display: 'flex', flexDirection: 'column', alignItems: 'center', gap: tokens.spacingVerticalL, padding: tokens.spacingVerticalL, userSelect: 'none' },
  sheet: { boxShadow: tokens.shadow8, backgroundColor: 'white' },
  centre: { margin: 'auto', maxWidth: '640px' },
});

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3];

type State = { kind: 'loading' } | { kind: 'error'; text: string } | { kind: 'ready'; doc: PDFDocumentProxy; protect: boolean; bytes: ArrayBuffer };

/**
 * The embedded PDF page of spec §2: `/pdf?file=<address of this site's API>`. Pages are drawn with pdf.js onto
 * canvases (no browser plugin, no framed blob that would bring the browser's own print and save buttons); printing,
 * saving and the context menu are blocked where the hospital's setting says so.
 */
export default function PdfPage() {
  const s = useStyles();
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const address = pdfAddress(params.get('file'), window.location.origin);
  const [state, setState] = useState<State>(address ? { kind: 'loading' } : { kind: 'error', text: t('pdf.badAddress') });
  const [zoom, setZoom] = useState(1);
  const pagesRef = useRef<HTMLDivElement>(null);
  usePdfProtection(state.kind !== 'ready' || state.protect);

  useEffect(() => {
    if (!address) return;
    let live = true;
    let opened: PDFDocumentProxy | null = null;
    Promise.all([fetchPdf(address), pdfProtected()])
      .then(async ([bytes, protect]) => {
        if (!looksLikePdf(bytes)) throw new Error(t('pdf.notPdf'));
        // pdf.js takes ownership of the buffer it is given: keep a copy for the download button.
        opened = await openPdf(bytes.slice(0));
        if (live) setState({ kind: 'ready', doc: opened, protect, bytes });
      })
      .catch((e: unknown) => {
        const reason = (e as { displayText?: string }).displayText ?? (e instanceof Error ? e.message : String(e));
        if (live) setState({ kind: 'error', text: t('pdf.loadFailed', { reason }) });
      });
    return () => { live = false; void opened?.destroy(); };
  }, [address, t]);

  const doc = state.kind === 'ready' ? state.doc : null;
  useEffect(() => {
    const box = pagesRef.current;
    if (!doc || !box) return;
    let cancelled = false;
    const width = Math.min(box.clientWidth - 48, 1000) * zoom;
    void (async () => {
      const canvases = box.querySelectorAll('canvas');
      for (let n = 1; n <= canvases.length && !cancelled; n++) await renderPage(doc, n, canvases[n - 1]!, width);
      if (!cancelled) box.dataset.rendered = String(canvases.length);
    })();
    return () => { cancelled = true; };
  }, [doc, zoom]);

  const download = () => {
    if (state.kind !== 'ready') return;
    const url = URL.createObjectURL(new Blob([state.bytes], { type: 'application/pdf' }));
    const a = document.createElement('a');
    a.href = url;
    a.download = (address?.split('?')[0]?.split('/').filter(Boolean).slice(-2).join('-') ?? 'document') + '.pdf';
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  const step = (dir: 1 | -1) => setZoom((z) => ZOOMS[Math.max(0, Math.min(ZOOMS.length - 1, ZOOMS.indexOf(z) + dir))]!);

  return (
    <div className={s.root} data-testid="pdf-page">
      <div className={s.bar}>
        <Text weight="semibold">{t('pdf.title')}</Text>
        {doc ? <Text data-testid="pdf-count">{t('pdf.pages', { count: doc.numPages })}</Text> : null}
        <span className={s.grow} />
        <Toolbar aria-label={t('pdf.title')}>
          <Tooltip content={t('pdf.zoomOut')} relationship="label"><ToolbarButton icon={<ZoomOut20Regular />} disabled={!doc || zoom === ZOOMS[0]} onClick={() => step(-1)} /></Tooltip>
          <Tooltip content={t('pdf.fitWidth')} relationship="label"><ToolbarButton icon={<ZoomFit20Regular />} disabled={!doc} onClick={() => setZoom(1)} /></Tooltip>
          <Tooltip content={t('pdf.zoomIn')} relationship="label"><ToolbarButton icon={<ZoomIn20Regular />} disabled={!doc || zoom === ZOOMS[ZOOMS.length - 1]} onClick={() => step(1)} /></Tooltip>
          {state.kind === 'ready' && !state.protect
            ? <Button icon={<ArrowDownload20Regular />} onClick={download} data-testid="pdf-download">{t('pdf.download')}</Button>
            : null}
        </Toolbar>
      </div>
      {state.kind === 'ready' && state.protect
        ? <MessageBar intent="info" data-testid="pdf-protected"><MessageBarBody>{t('pdf.protected')}</MessageBarBody></MessageBar>
        : null}
      <div className={s.pages} ref={pagesRef}>
        {state.kind === 'loading' ? <Spinner className={s.centre} label={t('pdf.loading')} /> : null}
        {state.kind === 'error'
          ? <MessageBar className={s.centre} intent="error" data-testid="pdf-error"><MessageBarBody>{state.text}</MessageBarBody></MessageBar>
          : null}
        {doc
          ? Array.from({ length: Math.min(doc.numPages, MAX_PAGES_SHOWN) }, (_, i) => (
            <canvas key={i} className={s.sheet} aria-label={t('pdf.pageLabel', { page: i + 1 })} data-testid="pdf-sheet" />
          ))
          : null}
      </div>
    </div>
  );
}
