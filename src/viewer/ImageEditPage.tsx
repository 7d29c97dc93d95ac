import { Button, Input, makeStyles, Text, ToggleButton, Toolbar, tokens } from '@fluentui/react-components';
import { ArrowUndo20Regular, Crop20Regular, InkStroke20Regular, Save20Regular, TextT20Regular } from '@fluentui/react-icons';
import { useEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router-dom';
import { api, unwrap } from '../api/client';
import { notify } from '../api/notify';
import { takeCapture } from './snapshot';

const useStyles = makeStyles({
  root: { position: 'fixed', inset: 0, display: 'flex', flexDirection: 'column', backgroundColor: tokens.colorNeutralBackground2 },
  bar: { flexWrap: 'wrap', gap: '4px', padding: '4px 8px', borderBottom: `1px solid ${tokens.colorNeutralStroke2}`, backgroundColor: tokens.colorNeutralBackground1 },
  stage: { flex: 1, display: 'grid', placeItems: 'center', overflow: 'auto', padding: '12px' },
  canvasBox: { position: 'relative', lineHeight: 0 },
  canvas: { maxWidth: 'calc(100vw - 24px)', maxHeight: 'calc(100vh - 80px)', boxShadow: tokens.shadow16, cursor: 'crosshair', touchAction: 'none' },
  crop: { position: 'absolute', border: `2px dashed ${tokens.colorBrandStroke1}`, pointerEvents: 'none', backgroundColor: 'rgba(0,120,212,0.08)' },
  swatch: { width: '32px', height: '28px', padding: 0, border: `1px solid ${tokens.colorNeutralStroke1}`, background: 'none' },
});

type EditTool = 'crop' | 'pen' | 'text';
type Box = { x: number; y: number; w: number; h: number };

/**
 * /image/edit (spec §2 image editing): the viewer's screenshot (annotations and scale bar in it) cropped,
 * drawn on and labelled, then saved as an image of the slide's case (POST /api/upload/image, then
 * /api/cases/{id}/images) or downloaded.
 */
export default function ImageEditPage() {
  const s = useStyles();
  const { t } = useTranslation();
  const [query] = useSearchParams();
  const capture = useRef(takeCapture()).current;
  const caseId = capture?.caseId ?? (Number(query.get('case')) || null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const [tool, setTool] = useState<EditTool>('pen');
  const [color, setColor] = useState('#ffeb3b');
  const [text, setText] = useState('');
  const [title, setTitle] = useState(capture?.slideName ?? '');
  const [crop, setCrop] = useState<Box | null>(null);
  const [history, setHistory] = useState<ImageData[]>([]);
  const [saving, setSaving] = useState(false);
  const stroke = useRef<{ x: number; y: number } | null>(null);
  const cropStart = useRef<{ x: number; y: number } | null>(null);

  useEffect(() => {
    if (!capture) return;
    const img = new Image();
    img.onload = () => {
      const c = canvas.current!;
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      c.getContext('2d')!.drawImage(img, 0, 0);
    };
    img.src = capture.dataUrl;
  }, [capture]);

  const ctx = () => canvas.current!.getContext('2d')!;
  /** Pointer → canvas pixels (the canvas is shown scaled to fit). */
  const at = (e: ReactPointerEvent) => {
    const r = canvas.current!.getBoundingClientRect();
    return { x: ((e.clientX - r.left) * canvas.current!.width) / r.width, y: ((e.clientY - r.top) * canvas.current!.height) / r.height };
  };
  const remember = () => setHistory((h) => [...h.slice(-19), ctx().getImageData(0, 0, canvas.current!.width, canvas.current!.height)]);
  const undo = () => {
    const last = history[history.length - 1];
    if (!last) return;
    canvas.current!.width = last.width;
    canvas.current!.height = last.height;
    ctx().putImageData(last, 0, 0);
    setHistory((h) => h.slice(0, -1));
  };

  const down = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const p = at(e);
    e.currentTarget.setPointerCapture(e.pointerId);
    if (tool === 'pen') { remember(); stroke.current = p; }
    if (tool === 'crop') { cropStart.current = p; setCrop({ x: p.x, y: p.y, w: 0, h: 0 }); }
    if (tool === 'text' && text.trim()) {
      remember();
      const c = ctx();
      const size = Math.max(16, Math.round(canvas.current!.width / 50));
      c.font = `600 ${size}px sans-serif`;
      c.lineWidth = Math.max(3, size / 6);
      c.strokeStyle = '#000';
      c.strokeText(text, p.x, p.y);
      c.fillStyle = color;
      c.fillText(text, p.x, p.y);
    }
  };
  const move = (e: ReactPointerEvent<HTMLCanvasElement>) => {
    const p = at(e);
    if (tool === 'pen' && stroke.current) {
      const c = ctx();
      c.strokeStyle = color;
      c.lineWidth = Math.max(3, canvas.current!.width / 400);
      c.lineCap = 'round';
      c.beginPath();
      c.moveTo(stroke.current.x, stroke.current.y);
      c.lineTo(p.x, p.y);
      c.stroke();
      stroke.current = p;
    }
    if (tool === 'crop' && cropStart.current) {
      const o = cropStart.current;
      setCrop({ x: Math.min(o.x, p.x), y: Math.min(o.y, p.y), w: Math.abs(p.x - o.x), h: Math.abs(p.y - o.y) });
    }
  };
  const up = () => { stroke.current = null; cropStart.current = null; };
  const applyCrop = () => {
    if (!crop || crop.w < 4 || crop.h < 4) return;
    remember();
    const data = ctx().getImageData(Math.round(crop.x), Math.round(crop.y), Math.round(crop.w), Math.round(crop.h));
    canvas.current!.width = data.width;
    canvas.current!.height = data.height;
    ctx().putImageData(data, 0, 0);
    setCrop(null);
  };

  const blob = () => new Promise<Blob>((resolve, reject) => canvas.current!.toBlob((b) => (b ? resolve(b) : reject(new Error('empty'))), 'image/png'));
  const save = async () => {
    if (!caseId) return;
    setSaving(true);
    try {
      const form = new FormData();
      form.append('file', await blob(), `${(title || 'screenshot').replace(/[\\/:*?"<>|]/g, '_')}.png`);
      const uploaded = await unwrap<{ path: string }>(api.post('/upload/image', form));
      const image = await unwrap<{ id: number }>(api.post(`/cases/${caseId}/images`, { path: uploaded.path, slide_id: capture?.slideId ?? null, title: title.slice(0, 200) }));
      notify(t('imageEdit.saved'), 'success');
      canvas.current!.dataset.savedId = String(image.id);
    } catch {
      // The API client has shown the server's translated message.
    } finally {
      setSaving(false);
    }
  };
  const download = async () => {
    const url = URL.createObjectURL(await blob());
    const a = document.createElement('a');
    a.href = url;
    a.download = `${title || 'screenshot'}.png`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  };

  if (!capture) return <div className={s.root}><Text style={{ margin: 'auto' }} data-testid="image-edit-empty">{t('imageEdit.empty')}</Text></div>;
  const shown = canvas.current?.getBoundingClientRect();
  const k = shown && canvas.current ? shown.width / canvas.current.width : 1;

  return (
    <div className={s.root} data-testid="image-edit">
      <Toolbar className={s.bar} size="small">
        <ToggleButton size="small" icon={<InkStroke20Regular />} checked={tool === 'pen'} data-testid="edit-pen" onClick={() => setTool('pen')}>{t('imageEdit.pen')}</ToggleButton>
        <ToggleButton size="small" icon={<TextT20Regular />} checked={tool === 'text'} data-testid="edit-text" onClick={() => setTool('text')}>{t('imageEdit.text')}</ToggleButton>
        {tool === 'text' && <Input size="small" data-testid="edit-text-value" placeholder={t('imageEdit.textPlaceholder')} value={text} maxLength={100} onChange={(_, d) => setText(d.value)} />}
        <ToggleButton size="small" icon={<Crop20Regular />} checked={tool === 'crop'} data-testid="edit-crop" onClick={() => setTool('crop')}>{t('imageEdit.crop')}</ToggleButton>
        {tool === 'crop' && <Button size="small" data-testid="edit-crop-apply" disabled={!crop || crop.w < 4 || crop.h < 4} onClick={applyCrop}>{t('imageEdit.applyCrop')}</Button>}
        <input type="color" className={s.swatch} aria-label={t('imageEdit.color')} value={color} onChange={(e) => setColor(e.target.value)} />
        <Button size="small" icon={<ArrowUndo20Regular />} disabled={!history.length} onClick={undo}>{t('viewer.undo')}</Button>
        <Input size="small" data-testid="edit-title" aria-label={t('imageEdit.title')} placeholder={t('imageEdit.title')} value={title} maxLength={200} onChange={(_, d) => setTitle(d.value)} />
        <Button size="small" appearance="primary" icon={<Save20Regular />} data-testid="edit-save" disabled={!caseId || saving} onClick={() => void save()}>
          {caseId ? t('imageEdit.save') : t('imageEdit.noCase')}
        </Button>
        <Button size="small" onClick={() => void download()}>{t('imageEdit.download')}</Button>
      </Toolbar>
      <div className={s.stage}>
        <div className={s.canvasBox}>
          <canvas ref={canvas} className={s.canvas} data-testid="edit-canvas" onPointerDown={down} onPointerMove={move} onPointerUp={up} onPointerCancel={up} />
          {crop && <div className={s.crop} style={{ left: crop.x * k, top: crop.y * k, width: crop.w * k, height: crop.h * k }} />}
        </div>
      </div>
    </div>
  );
}
