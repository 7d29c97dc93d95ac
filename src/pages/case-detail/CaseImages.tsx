import { makeStyles, Text, tokens } from '@fluentui/react-components';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { api, unwrap } from '../../api/client';

const useStyles = makeStyles({
  grid: { display: 'flex', flexWrap: 'wrap', gap: '12px' },
  figure: { margin: 0, display: 'grid', gap: '4px', justifyItems: 'start' },
  img: { maxWidth: '200px', maxHeight: '150px', borderRadius: tokens.borderRadiusMedium, border: `1px solid ${tokens.colorNeutralStroke2}` },
});

interface CaseImage { id: number; title: string; created_at: string }

/**
 * The case's images (gross photos, viewer screenshots): GET /api/cases/{id}/images. The files need the session's
 * token, which an <img> address cannot carry, so each is fetched through the API client and shown from memory.
 */
export function CaseImages({ caseId, version }: { caseId: number; version: unknown }) {
  const s = useStyles();
  const { t } = useTranslation();
  const [images, setImages] = useState<(CaseImage & { url: string })[]>([]);
  useEffect(() => {
    let live = true;
    const urls: string[] = [];
    void (async () => {
      try {
        const list = await unwrap<CaseImage[]>(api.get(`/cases/${caseId}/images`, { silent: true }));
        const loaded = await Promise.all(list.map(async (i) => {
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
  if (!images.length) return <Text data-testid="case-images">{t('lab.detail.none')}</Text>;
  return (
    <div className={s.grid} data-testid="case-images">
      {images.map((i) => (
        <figure key={i.id} className={s.figure}>
          <img className={s.img} src={i.url} alt={i.title} data-image-id={i.id} />
          <Text size={200}>{i.title}</Text>
        </figure>
      ))}
    </div>
  );
}
