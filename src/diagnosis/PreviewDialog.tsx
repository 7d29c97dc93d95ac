import { Button, Dialog, DialogActions, DialogBody, DialogContent, DialogSurface, DialogTitle, Spinner } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { pdfFile, previewPage } from './api';

/** A new tab of this site with its opener: the browser copies the tab's session (sessionStorage) into it. */
const openPdfPage = (reportId: number) => window.open(`/pdf?file=${encodeURIComponent(`/api/diagnosis/reports/${reportId}/pdf`)}`, '_blank');

/**
 * The report preview: the server's PDF shown as page images (rendered on the server from the same PDF), so no
 * browser plugin or framed blob is needed; the PDF itself downloads from here.
 */
export function PreviewDialog({ reportId, onClose }: { reportId: number; onClose(): void }) {
  const { t } = useTranslation();
  const [src, setSrc] = useState<string | null>(null);
  useEffect(() => {
    let url: string | null = null;
    previewPage(reportId).then((blob) => { url = URL.createObjectURL(blob); setSrc(url); }).catch(() => onClose());
    return () => { if (url) URL.revokeObjectURL(url); };
  }, [reportId, onClose]);
  const download = async () => {
    const url = URL.createObjectURL(await pdfFile(reportId));
    const a = document.createElement('a');
    a.href = url;
    a.download = `report-${reportId}.pdf`;
    a.click();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  };
  return (
    <Dialog open onOpenChange={(_, d) => { if (!d.open) onClose(); }}>
      <DialogSurface style={{ maxWidth: 900 }}>
        <DialogBody>
          <DialogTitle>{t('diagnosis.preview')}</DialogTitle>
          <DialogContent>
            {src ? <img src={src} alt={t('diagnosis.page', { page: 1 })} data-testid="report-preview" style={{ width: '100%', border: '1px solid #ddd' }} /> : <Spinner />}
          </DialogContent>
          <DialogActions>
            <Button onClick={() => openPdfPage(reportId)} data-testid="open-pdf-page">{t('diagnosis.openPdfPage')}</Button>
            <Button onClick={() => void download()}>{t('diagnosis.download')}</Button>
            <Button appearance="primary" onClick={onClose}>{t('diagnosis.close')}</Button>
          </DialogActions>
        </DialogBody>
      </DialogSurface>
    </Dialog>
  );
}
