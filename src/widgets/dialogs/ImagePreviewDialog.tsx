import { Button, makeStyles, tokens } from '@fluentui/react-components';
import { ArrowReset20Regular, ZoomIn20Regular, ZoomOut20Regular } from '@fluentui/react-icons';
import { useState, type WheelEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { ResizableDialog } from './ResizableDialog';
import { useThrottledConfirm } from './useThrottledConfirm';

/** Spec §9: image viewer zoom step 0.4. */
export const ZOOM_STEP = 0.4;
const MIN_ZOOM = 0.2;
const MAX_ZOOM = 10;

const useStyles = makeStyles({
  stage: { height: '60vh', overflow: 'auto', display: 'flex', alignItems: 'center', justifyContent: 'center', backgroundColor: tokens.colorNeutralBackground3 },
  image: { maxWidth: '100%', maxHeight: '100%', transition: 'transform 80ms linear', transformOrigin: 'center center' },
  tools: { display: 'flex', gap: tokens.spacingHorizontalXS, marginRight: 'auto', alignItems: 'center' },
});

export interface ImagePreviewProps {
  open: boolean;
  src: string;
  title?: string;
  onConfirm(): void;
  onCancel(): void;
}

/** The image preview dialog of spec §2: Confirm and Cancel; zoom in steps of 0.4 with buttons or the wheel. */
export function ImagePreviewDialog({ open, src, title, onConfirm, onCancel }: ImagePreviewProps) {
  const s = useStyles();
  const { t } = useTranslation();
  const [zoom, setZoom] = useState(1);
  const by = (delta: number) => setZoom((z) => Math.min(MAX_ZOOM, Math.max(MIN_ZOOM, Math.round((z + delta) * 10) / 10)));
  const confirm = useThrottledConfirm(onConfirm);
  const onWheel = (e: WheelEvent) => by(e.deltaY < 0 ? ZOOM_STEP : -ZOOM_STEP);
  return (
    <ResizableDialog open={open} onOpenChange={(o) => !o && onCancel()} title={title ?? t('dialog.imagePreview')} width={720} testId="image-preview"
      actions={(
        <>
          <span className={s.tools}>
            <Button icon={<ZoomOut20Regular />} appearance="subtle" aria-label={t('dialog.zoomOut')} onClick={() => by(-ZOOM_STEP)} />
            <span>{Math.round(zoom * 100)}%</span>
            <Button icon={<ZoomIn20Regular />} appearance="subtle" aria-label={t('dialog.zoomIn')} onClick={() => by(ZOOM_STEP)} />
            <Button icon={<ArrowReset20Regular />} appearance="subtle" aria-label={t('dialog.zoomReset')} onClick={() => setZoom(1)} />
          </span>
          <Button appearance="secondary" onClick={onCancel}>{t('common.cancel')}</Button>
          <Button appearance="primary" onClick={confirm}>{t('common.confirm')}</Button>
        </>
      )}>
      <div className={s.stage} onWheel={onWheel}>
        <img className={s.image} src={src} alt={title ?? ''} style={{ transform: `scale(${zoom})` }} />
      </div>
    </ResizableDialog>
  );
}
