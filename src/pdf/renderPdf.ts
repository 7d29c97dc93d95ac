import { GlobalWorkerOptions, getDocument, type PDFDocumentProxy } from 'pdfjs-dist';
import workerUrl from 'pdfjs-dist/build/pdf.worker.min.mjs?url';

// The worker is a file of this site (CSP worker-src 'self').
GlobalWorkerOptions.workerSrc = workerUrl;

/** More pages are not a report: the page shows the first ones and says how many there are. */
export const MAX_PAGES_SHOWN = 200;

/**
 * Opens a PDF held in memory. No eval (the app's CSP allows it only for ajv, and pdf.js does not need it) and no
 * @font-face from data: URLs: glyphs are drawn as paths, so embedded CJK fonts render the same in every browser.
 */
export function openPdf(data: ArrayBuffer): Promise<PDFDocumentProxy> {
  return getDocument({ data, isEvalSupported: false, disableFontFace: true, enableXfa: false }).promise;
}

/** Draws page `n` (1-based) into the canvas at `cssWidth` CSS pixels wide, sharp on high-DPI screens. */
export async function renderPage(doc: PDFDocumentProxy, n: number, canvas: HTMLCanvasElement, cssWidth: number): Promise<void> {
  const page = await doc.getPage(n);
  const base = page.getViewport({ scale: 1 });
  const ratio = window.devicePixelRatio || 1;
  const viewport = page.getViewport({ scale: (cssWidth / base.width) * ratio });
  canvas.width = Math.floor(viewport.width);
  canvas.height = Math.floor(viewport.height);
  canvas.style.width = `${Math.floor(viewport.width / ratio)}px`;
  canvas.style.height = `${Math.floor(viewport.height / ratio)}px`;
  const context = canvas.getContext('2d');
  if (!context) return;
  await page.render({ canvasContext: context, viewport }).promise;
  page.cleanup();
}
