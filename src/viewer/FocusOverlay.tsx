import { makeStyles, tokens } from '@fluentui/react-components';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../api/client';
import { heatColour } from '../core/focus';
import type { Affine } from '../core/viewerScale';

/** What GET /api/data/kfb/:id/focus answers (server/modules/focus/routes.ts). */
export interface FocusMap {
  cols: number;
  rows: number;
  cell_width: number;
  cell_height: number;
  blur_share: number;
  map: string;
}

const useStyles = makeStyles({
  canvas: { position: 'absolute', left: 0, top: 0, transformOrigin: '0 0', imageRendering: 'pixelated', pointerEvents: 'none' },
  legend: {
    position: 'absolute', right: '8px', top: '8px', display: 'flex', gap: '8px', alignItems: 'center', pointerEvents: 'none',
    backgroundColor: tokens.colorNeutralBackground1, padding: '2px 8px', borderRadius: tokens.borderRadiusSmall, boxShadow: tokens.shadow4,
    fontSize: tokens.fontSizeBase200,
  },
  ramp: { width: '80px', height: '10px', background: 'linear-gradient(to right, rgb(230,0,40), rgb(230,200,40), rgb(0,200,40))' },
});

/**
 * The automatic focus check's map over the slide: one canvas pixel a cell, red out of focus to green in focus, glass
 * transparent, placed in image space by the same image → element transform as the annotations (so it follows zoom,
 * rotation and flip). A canvas, not an image: nothing is loaded, the page's CSP is untouched.
 */
export function FocusOverlay({ slideId, matrix }: { slideId: number; matrix: Affine | null }) {
  const s = useStyles();
  const { t } = useTranslation();
  const canvas = useRef<HTMLCanvasElement>(null);
  const [focus, setFocus] = useState<FocusMap | null | 'missing'>(null);

  useEffect(() => {
    let live = true;
    unwrap<FocusMap>(api.get(`/data/kfb/${slideId}/focus`)).then((map) => { if (live) setFocus(map); }, () => { if (live) setFocus('missing'); });
    return () => { live = false; };
  }, [slideId]);

  useEffect(() => {
    const el = canvas.current;
    if (!el || !focus || focus === 'missing') return;
    const bytes = Uint8Array.from(atob(focus.map), (c) => c.charCodeAt(0));
    const img = new ImageData(focus.cols, focus.rows);
    bytes.forEach((v, i) => img.data.set(heatColour(v), i * 4));
    el.getContext('2d')?.putImageData(img, 0, 0);
  }, [focus]);

  if (focus === 'missing') return <div className={s.legend} data-testid="focus-legend">{t('viewer.focus.pending')}</div>;
  if (!focus || !matrix) return null;
  const m = matrix, w = focus.cell_width, h = focus.cell_height;
  return (
    <>
      <canvas ref={canvas} className={s.canvas} width={focus.cols} height={focus.rows} data-testid="focus-overlay"
        style={{ transform: `matrix(${m.a * w}, ${m.b * w}, ${m.c * h}, ${m.d * h}, ${m.e}, ${m.f})` }} />
      <div className={s.legend} data-testid="focus-legend">
        <span>{t('viewer.focus.legendBlurred')}</span><div className={s.ramp} /><span>{t('viewer.focus.legendSharp')}</span>
        <strong>{t('viewer.focus.share', { value: (focus.blur_share * 100).toFixed(1) })}</strong>
      </div>
    </>
  );
}
