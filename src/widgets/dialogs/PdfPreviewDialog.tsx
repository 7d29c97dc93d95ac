import { Button, Link, makeStyles } from '@fluentui/react-components';
import { useTranslation } from 'react-i18next';
import { ResizableDialog } from './ResizableDialog';

const useStyles = makeStyles({
  frame: { width: '100%', height: '70vh', border: 'none', display: 'block' },
});

/** The PDF preview dialog of spec §2: the browser's own PDF viewer in an object, with a link when it has none. */
export function PdfPreviewDialog({ open, src, title, onClose }: { open: boolean; src: string; title?: string; onClose(): void }) {
  const s = useStyles();
  const { t } = useTranslation();
  return (
    <ResizableDialog open={open} onOpenChange={(o) => !o && onClose()} title={title ?? t('dialog.pdfPreview')} width={900} testId="pdf-preview"
      actions={<Button appearance="primary" onClick={onClose}>{t('dialog.close')}</Button>}>
      <object className={s.frame} data={src} type="application/pdf" aria-label={title ?? t('dialog.pdfPreview')}>
        <Link href={src} target="_blank" rel="noopener">{t('dialog.openPdf')}</Link>
      </object>
    </ResizableDialog>
  );
}
