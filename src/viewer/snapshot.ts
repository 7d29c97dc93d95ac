import type { SlideViewer } from './slideViewer';

/** A captured view on its way to the image editor (kept in memory: a data URL can outgrow session storage). */
export interface Capture { dataUrl: string; slideId: number; caseId: number | null; slideName: string }

let pending: Capture | null = null;
export const setCapture = (c: Capture | null) => { pending = c; };
export const takeCapture = (): Capture | null => pending;

/**
 * The current view as a PNG: the drawn canvas (colour adjustment included, it is in the pixels), with the
 * annotation overlay and the scale bar drawn over it at the canvas's resolution. The overlay is SVG,
 * rasterised through an <img> of a blob URL (allowed by the page's CSP img-src).
 */
export async function captureView(viewer: SlideViewer, pane: HTMLElement): Promise<string> {
  const source = viewer.canvas();
  if (!source) throw new Error('no canvas');
  const out = document.createElement('canvas');
  out.width = source.width;
  out.height = source.height;
  const ctx = out.getContext('2d')!;
  ctx.drawImage(source, 0, 0);
  const scale = source.width / (pane.clientWidth || source.width);
  const overlay = pane.querySelector<SVGSVGElement>('[data-testid="annotation-overlay"]');
  if (overlay) await drawSvg(ctx, overlay, scale);
  const bar = pane.querySelector<HTMLElement>('[data-testid="scale-bar"]');
  if (bar) drawScaleBar(ctx, bar, pane, scale);
  return out.toDataURL('image/png');
}

async function drawSvg(ctx: CanvasRenderingContext2D, svg: SVGSVGElement, scale: number) {
  const copy = svg.cloneNode(true) as SVGSVGElement;
  copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
  const text = new XMLSerializer().serializeToString(copy);
  const url = URL.createObjectURL(new Blob([text], { type: 'image/svg+xml' }));
  try {
    const img = new Image();
    img.src = url;
    await img.decode();
    ctx.drawImage(img, 0, 0, svg.clientWidth * scale, svg.clientHeight * scale);
  } finally {
    URL.revokeObjectURL(url);
  }
}

function drawScaleBar(ctx: CanvasRenderingContext2D, bar: HTMLElement, pane: HTMLElement, scale: number) {
  const line = bar.firstElementChild as HTMLElement | null;
  if (!line) return;
  const paneBox = pane.getBoundingClientRect();
  const box = line.getBoundingClientRect();
  const x = (box.left - paneBox.left) * scale;
  const y = (box.top - paneBox.top) * scale;
  ctx.fillStyle = 'rgba(255,255,255,0.85)';
  ctx.fillRect(x - 6 * scale, y - 6 * scale, box.width * scale + 12 * scale, 30 * scale);
  ctx.fillStyle = '#000';
  ctx.fillRect(x, y, box.width * scale, 6 * scale);
  ctx.font = `${12 * scale}px sans-serif`;
  ctx.fillText(bar.textContent ?? '', x, y + 20 * scale);
}
