import { Badge, makeStyles, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router-dom';
import { api, unwrap } from '../../api/client';
import { groupSeries, radiologyKind, type DicomAttachment, type RadiologySeries } from '../../core/radiology';

const useStyles = makeStyles({
  root: { display: 'grid', gap: '12px' },
  grid: { display: 'flex', flexWrap: 'wrap', gap: '12px' },
  figure: { margin: 0, display: 'grid', gap: '4px', justifyItems: 'start' },
  img: { maxWidth: '200px', maxHeight: '150px', borderRadius: tokens.borderRadiusMedium, border: `1px solid ${tokens.colorNeutralStroke2}` },
  series: { display: 'grid', gap: '6px', margin: 0, padding: 0, listStyle: 'none' },
  seriesRow: { display: 'flex', gap: tokens.spacingHorizontalS, alignItems: 'center', flexWrap: 'wrap' },
});

interface CaseImage extends DicomAttachment { created_at: string }

/**
 * The case's images (gross photos, viewer screenshots): GET /api/cases/{id}/images. The files need the session's
 * token, which an <img> address cannot carry, so each picture is fetched through the API client and shown from memory.
 * DICOM attachments (issue 30) are listed by series instead, each opening the DICOM viewer (/dicom/{case}/{image}):
 * their bytes are fetched there, not here.
 */
export function CaseImages({ caseId, version }: { caseId: number; version: unknown }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [images, setImages] = useState<(CaseImage & { url: string })[]>([]);
  const [series, setSeries] = useState<RadiologySeries[]>([]);
  useEffect(() => {
    let live = true;
    const urls: string[] = [];
    void (async () => {
      try {
        const list = await unwrap<CaseImage[]>(api.get(`/cases/${caseId}/images`, { silent: true }));
        if (live) setSeries(groupSeries(list));
        const loaded = await Promise.all(list.filter((i) => !i.modality).map(async (i) => {
          const { data } = await api.get<Blob>(`/cases/images/${i.id}/file`, { responseType: 'blob', silent: true });
          const url = URL.createObjectURL(data);
          urls.push(url);
          return { ...i, url };
        }));
        if (live) setImages(loaded);
      } catch {
        // Images are an extra on this page: the rest of the case shows without them.
      }
    })();
    return () => {
      live = false;
      for (const u of urls) URL.revokeObjectURL(u);
    };
  }, [caseId, version]);
  if (!images.length && !series.length) return <Text data-testid="case-images">{t('lab.detail.none')}</Text>;
  return (
    <div className={s.root} data-testid="case-images">
      {images.length > 0 && (
        <div className={s.grid}>
          {images.map((i) => (
            <figure key={i.id} className={s.figure}>
              <img className={s.img} src={i.url} alt={i.title} data-image-id={i.id} />
              <Text size={200}>{i.title}</Text>
            </figure>
          ))}
        </div>
      )}
      {series.length > 0 && (
        <>
          <Text weight="semibold">{t('lab.detail.radiology')}</Text>
          <ul className={s.series} data-testid="case-radiology">
            {series.map((x) => (
              <li key={x.key} className={s.seriesRow} data-series={x.key}>
                <Badge appearance="outline">{radiologyKind(x.modality) ?? x.modality}</Badge>
                <Text>{t('lab.detail.radiologySeries', { modality: x.modality, description: x.description, count: x.images.length })}</Text>
                <Link to={`/dicom/${caseId}/${x.images[0]}`} data-testid="open-dicom">{t('lab.detail.openDicom')}</Link>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}
